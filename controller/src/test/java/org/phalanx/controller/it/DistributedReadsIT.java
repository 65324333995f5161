package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;
import static org.phalanx.controller.it.Sql.text;
import static org.phalanx.controller.it.Sql.update;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-only sessions on a distributed virtual database's followers (docs/distribution.md, 'Reads on
 * the followers'): a connection with readOnly=true is served by any member, a follower answering
 * from its own backends as current as its copy of the log; it refuses writes and stays read-only;
 * one without readOnly=true is still refused there (08004); and it fails over like any other. Also
 * an exactly-once retry on the primary itself: a write whose connection its driver gave up on.
 */
class DistributedReadsIT {
    @TempDir
    Path dir;
    private ControllerGroup group;

    @AfterEach
    void stop() {
        if (group != null) {
            group.close();
        }
    }

    private String direct(int member, String options) {
        return group.url(member, options);
    }

    /** Waits until the query answers {@code expected} there (a follower applies the log a moment later). */
    private static void awaitCount(Connection c, String sql, long expected) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long seen = -1;
        while (System.nanoTime() < end) {
            seen = one(c, sql);
            if (seen == expected) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(sql + " answered " + seen + ", not " + expected);
    }

    /**
     * A member back with the others serves again: a read-only session there reads {@code expected}
     * within a minute. Until its backends have caught up with the log, its first reads may be refused
     * (their read barrier times out) and the session ended: each try is a new connection.
     */
    private static void awaitServed(String url, String sql, long expected) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String seen = "nothing";
        while (System.nanoTime() < end) {
            try (Connection c = DriverManager.getConnection(url)) {
                long count = one(c, sql);
                if (count == expected) {
                    return;
                }
                seen = String.valueOf(count);
            } catch (SQLException e) {
                seen = e.getSQLState() + " " + e.getMessage();
            }
            Thread.sleep(200);
        }
        throw new AssertionError(sql + " answered " + seen + ", not " + expected);
    }

    /** Connects until the URL is refused (30 s at most); the refusal's message. */
    private static String awaitRefused(String url) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            try {
                DriverManager.getConnection(url).close();
            } catch (SQLException refused) {
                return refused.getMessage();
            }
            Thread.sleep(500);
        }
        throw new AssertionError("still served after 30 s: " + url);
    }

    @Test
    void followersServeReadOnlySessionsFromTheirOwnBackends() throws Exception {
        group = new ControllerGroup(dir, 1, false, false, false);
        group.startAll();
        int primary = group.primary(60);
        assertTrue(primary >= 0, "no primary was elected" + group.outputs());
        int follower = (primary + 1) % group.size();
        try (Connection c = DriverManager.getConnection(group.url())) {
            update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
            for (int id = 1; id <= 100; id++) {
                update(c, "INSERT INTO t VALUES (?, 'row')", id);
            }
        }
        SQLException refused = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(direct(follower, "failoverTimeout=0")).close());
        assertEquals("08001", refused.getSQLState(), "a follower serves no read-write session: " + refused.getMessage());

        try (Connection reader = DriverManager.getConnection(direct(follower, "readOnly=true&failoverTimeout=10000"))) {
            assertTrue(reader.isReadOnly());
            awaitCount(reader, "SELECT COUNT(*) FROM t", 100);
            SQLException write = assertThrows(SQLException.class, () -> update(reader, "INSERT INTO t VALUES (101, 'x')"));
            assertEquals("25006", write.getSQLState(), write.getMessage());
            SQLException readWrite = assertThrows(SQLException.class, () -> reader.setReadOnly(false));
            assertEquals("25006", readWrite.getSQLState(), readWrite.getMessage());

            try (Connection c = DriverManager.getConnection(group.url())) {
                update(c, "INSERT INTO t VALUES (101, 'later')");
            }
            awaitCount(reader, "SELECT COUNT(*) FROM t", 101); // the follower applies it a moment later
        }

        // followerReads=current: each read on the follower sees every write committed before it started,
        // also one made a moment ago through another connection (read-your-writes across members)
        try (Connection writer = DriverManager.getConnection(group.url());
             Connection reader = DriverManager.getConnection(direct(follower,
                     "readOnly=true&followerReads=current&failoverTimeout=10000"))) {
            for (int i = 0; i < 30; i++) {
                update(writer, "UPDATE t SET v = ? WHERE id = 2", "w" + i);
                assertEquals("w" + i, text(reader, "SELECT v FROM t WHERE id = 2"), "read " + i + " on the follower");
            }
            reader.setAutoCommit(false);
            update(writer, "UPDATE t SET v = 'in a transaction' WHERE id = 2");
            assertEquals("in a transaction", text(reader, "SELECT v FROM t WHERE id = 2"),
                    "a transaction on the follower starts as current as the group");
            reader.commit();
        }
        assertEquals(0, one(DriverManager.getConnection(direct(primary, "readOnly=true")),
                "SELECT COUNT(*) FROM t WHERE id > 101"), "the primary serves read-only sessions too");

        // A write in auto-commit whose connection the driver gave up on (socketTimeout) while it waited
        // for a lock: the driver asks the primary, which closes that connection, lets the write finish
        // once the lock is free, and answers that it was applied, with its count (exactly-once retries).
        try (Connection holder = DriverManager.getConnection(group.url())) {
            holder.setAutoCommit(false);
            update(holder, "UPDATE t SET v = 'held' WHERE id = 1");
            CompletableFuture<Integer> write = CompletableFuture.supplyAsync(() -> {
                try (Connection w = DriverManager.getConnection(group.url() + "&socketTimeout=3000")) {
                    return update(w, "UPDATE t SET v = v || '+' WHERE id = 1");
                } catch (SQLException e) {
                    throw new CompletionException(e);
                }
            });
            Thread.sleep(4_000); // the writer's driver has given up on its first connection and asked
            holder.commit();
            assertEquals(1, write.get(30, TimeUnit.SECONDS), "the write's own count, from the primary's answer");
        }
        try (Connection c = DriverManager.getConnection(group.url())) {
            assertEquals(1, one(c, "SELECT COUNT(*) FROM t WHERE id = 1 AND v = 'held+'"), "applied once");
        }
        assertTrue(group.outcomesAnswered().contains("Applied[count=1]"), "answered: " + group.outcomesAnswered());

        // A follower cut off from the others (both SIGSTOPped: a partition's stand-in) stops serving
        // read-only sessions once it has seen less than a majority for appendTimeout (5 s): what it
        // holds may be stale, and the majority may have a new primary; back with them, it serves again.
        int other = 3 - primary - follower;
        try (Connection reader = DriverManager.getConnection(direct(follower, "readOnly=true&failoverTimeout=10000"))) {
            group.signal(primary, "STOP");
            group.signal(other, "STOP");
            try {
                assertTrue(awaitRefused(direct(follower, "readOnly=true&failoverTimeout=0")).contains("less than a majority"),
                        "a cut-off follower refuses read-only sessions" + group.outputs());
                assertThrows(SQLException.class, () -> one(reader, "SELECT COUNT(*) FROM t"),
                        "its open read-only sessions were closed");
            } finally {
                group.signal(primary, "CONT");
                group.signal(other, "CONT");
            }
        }
        assertTrue(group.primary(60) >= 0, "a primary serves again" + group.outputs());
        primary = group.primary(10);
        awaitServed(direct(follower, "readOnly=true&failoverTimeout=60000"), "SELECT COUNT(*) FROM t", 101);

        // a read-only connection naming every member goes on when its follower becomes the primary
        String everyMember = group.url() + "&readOnly=true";
        try (Connection reader = DriverManager.getConnection(everyMember)) {
            awaitCount(reader, "SELECT COUNT(*) FROM t", 101);
            group.kill(primary);
            awaitCount(reader, "SELECT COUNT(*) FROM t", 101);
            assertTrue(group.primary(30) >= 0, "another member took over" + group.outputs());
            awaitCount(reader, "SELECT COUNT(*) FROM t", 101);
        }
    }

    /**
     * readOnlyRouting=followers: a read-write connection naming every member runs what it declares
     * read-only on a follower, reading every write committed before (its own included), and goes
     * back to the primary for writes; when that follower dies its read-only work goes on elsewhere,
     * and when the primary dies its writes go on with the next primary.
     */
    @Test
    void readOnlyWorkOfAReadWriteConnectionRunsOnAFollower() throws Exception {
        group = new ControllerGroup(dir, 1, false, false, false);
        group.startAll();
        int primary = group.primary(60);
        assertTrue(primary >= 0, "no primary was elected" + group.outputs());
        try (Connection c = DriverManager.getConnection(group.url() + "&readOnlyRouting=followers")) {
            update(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
            update(c, "INSERT INTO t VALUES (1, 0)");
            for (int i = 1; i <= 20; i++) {
                c.setReadOnly(false);
                update(c, "UPDATE t SET v = ? WHERE id = 1", i);
                c.setReadOnly(true);
                assertEquals(i, one(c, "SELECT v FROM t WHERE id = 1"), "the follower reads the write just made");
            }
            int follower = servingMember(c);
            assertTrue(follower != primary, "read-only work runs on a follower: " + c);
            SQLException write = assertThrows(SQLException.class, () -> update(c, "UPDATE t SET v = -1 WHERE id = 1"));
            assertEquals("25006", write.getSQLState(), write.getMessage());

            // a read-only transaction there, then a read-write one on the primary
            c.setAutoCommit(false);
            assertEquals(20, one(c, "SELECT v FROM t WHERE id = 1"));
            SQLException inTransaction = assertThrows(SQLException.class, () -> c.setReadOnly(false));
            assertEquals("25001", inTransaction.getSQLState(), inTransaction.getMessage());
            c.commit();
            c.setReadOnly(false);
            assertEquals(primary, servingMember(c));
            update(c, "UPDATE t SET v = 21 WHERE id = 1");
            c.commit();
            c.setAutoCommit(true);

            // the follower dies: the read-only work goes on with another member
            c.setReadOnly(true);
            group.kill(follower);
            assertEquals(21, one(c, "SELECT v FROM t WHERE id = 1"));
            assertTrue(servingMember(c) != follower, c.toString());
            group.start(follower);

            // the primary dies (two members of three remain): the next write goes on with the next primary
            c.setReadOnly(false);
            group.kill(primary);
            update(c, "UPDATE t SET v = 22 WHERE id = 1");
            c.setReadOnly(true);
            assertEquals(22, one(c, "SELECT v FROM t WHERE id = 1"));
        }
    }

    /** The member whose controller serves the connection now (its toString names the controller's address). */
    private int servingMember(Connection c) {
        for (int i = 0; i < group.size(); i++) {
            if (c.toString().contains("127.0.0.1:" + group.clientPort(i) + "/")) {
                return i;
            }
        }
        throw new AssertionError("no member serves " + c);
    }
}
