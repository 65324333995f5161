package org.phalanx.testkit.process;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * Which controller of a distributed virtual database's group serves its sessions (its primary):
 * the one that accepts a read-write session; the others refuse it (08004).
 */
public final class GroupProbe {
    private GroupProbe() {
    }

    /**
     * The index of the member (host:port, null for one that is down) that accepts a session,
     * waiting up to {@code wait} for one; -1 if none did.
     */
    public static int primary(List<String> members, String vdb, String user, String password, Duration wait)
            throws InterruptedException {
        long end = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < end) {
            for (int i = 0; i < members.size(); i++) {
                if (members.get(i) == null) {
                    continue;
                }
                try (Connection c = DriverManager.getConnection("jdbc:phalanx://" + members.get(i) + "/" + vdb
                        + "?failoverTimeout=0&connectTimeout=2000", user, password)) {
                    return i;
                } catch (SQLException notThePrimary) {
                    // 08004 (not the primary, or no primary yet), or down
                }
            }
            Thread.sleep(100);
        }
        return -1;
    }
}
