package org.phalanx.testkit.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@code init} option of a {@link FaultyDriver} URL: an in-memory H2 database
 * ({@code jdbc:h2:mem:...;DB_CLOSE_DELAY=-1}) is loaded from its script (made with H2's
 * {@code SCRIPT TO}) once per backend name and JVM, before its first connection is handed out.
 */
final class InitScripts {
    /** Per backend name: whether its script has run. One lock per backend, so backends load side by side. */
    private static final Map<String, AtomicBoolean> DONE = new ConcurrentHashMap<>();

    private InitScripts() {
    }

    /** Runs the URL's script unless it ran for this backend; callers wait until it has. */
    static void runOnce(FaultyUrl url, Properties info) throws SQLException {
        if (url.init() == null) {
            return;
        }
        AtomicBoolean done = DONE.computeIfAbsent(url.name(), k -> new AtomicBoolean());
        synchronized (done) {
            if (!done.get()) {
                try (Connection c = DriverManager.getConnection(url.realUrl(), info); Statement s = c.createStatement()) {
                    s.execute("RUNSCRIPT FROM '" + url.init().toString().replace("'", "''") + "'");
                }
                done.set(true);
            }
        }
    }
}
