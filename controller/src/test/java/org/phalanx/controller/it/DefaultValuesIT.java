package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.controller.it.Sql.update;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Column defaults each replica would compute for itself (issue 18): the time and random numbers
 * are chosen once by the controller, for single inserts and batches, so the replicas hold the same
 * values; a default the controller cannot choose (a random UUID) refuses an INSERT that leaves
 * its column out, with the reason.
 */
class DefaultValuesIT extends WithEngineCluster {
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"SQLITE", "POSTGRESQL", "MARIADB"})
    void replicasStoreTheSameDefaults(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_defaults", "");
        String table = switch (kind) {
            case SQLITE -> "CREATE TABLE d (id INTEGER PRIMARY KEY, at TEXT DEFAULT CURRENT_TIMESTAMP,"
                    + " stamp TEXT DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')), note TEXT)";
            case POSTGRESQL -> "CREATE TABLE d (id INTEGER PRIMARY KEY, at TIMESTAMP(3) DEFAULT now(),"
                    + " stamp TIMESTAMPTZ DEFAULT clock_timestamp(), r DOUBLE PRECISION DEFAULT random(), note TEXT)";
            case MARIADB -> "CREATE TABLE d (id INTEGER PRIMARY KEY, at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),"
                    + " r DOUBLE DEFAULT (RAND()), note TEXT)";
        };
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate(table);
            for (int i = 1; i <= 20; i++) {
                update(c, "INSERT INTO d (id, note) VALUES (?, 'single')", i);
            }
            c.setAutoCommit(false);
            try (PreparedStatement batch = c.prepareStatement("INSERT INTO d (id, note) VALUES (?, 'batch')")) {
                for (int i = 21; i <= 40; i++) {
                    batch.setInt(1, i);
                    batch.addBatch();
                }
                batch.executeBatch();
            }
            c.commit();
            c.setAutoCommit(true);
            // the engines' other INSERT forms get the same values
            for (String sql : switch (kind) {
                case SQLITE -> List.of("INSERT OR REPLACE INTO d (id, note) VALUES (41, 'or replace')",
                        "INSERT OR IGNORE INTO d (id, note) VALUES (42, 'or ignore')");
                case MARIADB -> List.of("INSERT IGNORE INTO d (id, note) VALUES (41, 'ignore')",
                        "REPLACE INTO d (id, note) VALUES (42, 'replace')");
                case POSTGRESQL -> List.of("INSERT INTO d (id, note) VALUES (41, 'on conflict') ON CONFLICT DO NOTHING",
                        "INSERT INTO d (id, note) VALUES (42, 'plain')");
            }) {
                update(c, sql);
            }
            // forms the controller cannot complete are refused, rather than left to each replica
            List<String> refusedForms = new java.util.ArrayList<>(List.of(
                    "INSERT INTO d (id, note) SELECT id + 100, note FROM d WHERE id = 1",
                    "INSERT INTO d (id, at, note) VALUES (101, DEFAULT, 'default')"));
            if (kind != Kind.MARIADB) {
                refusedForms.add("INSERT INTO d DEFAULT VALUES");
            }
            if (kind == Kind.POSTGRESQL) {
                refusedForms.add("INSERT INTO d VALUES (102)"); // fewer values than columns: the rest take their defaults
            }
            if (kind == Kind.MARIADB) {
                refusedForms.add("INSERT INTO d SET id = 103, note = 'set'"); // at and r left to their defaults
            }
            for (String sql : refusedForms) {
                SQLException e = assertThrows(SQLException.class, () -> update(c, sql), sql);
                assertEquals("0A000", e.getSQLState(), sql + ": " + e.getMessage());
            }
            if (kind == Kind.POSTGRESQL) {
                s.executeUpdate("CREATE TABLE u (id INTEGER PRIMARY KEY, token UUID DEFAULT gen_random_uuid())");
                SQLException refused = assertThrows(SQLException.class, () -> update(c, "INSERT INTO u (id) VALUES (1)"));
                assertEquals("0A000", refused.getSQLState(), refused.getMessage());
                update(c, "INSERT INTO u (id, token) VALUES (1, '6f1b2c1e-8d3a-4c55-9d1a-0b6a1f4e2a77')");
            }
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(42, cluster.assertIdentical("d", "id"));
    }

    /**
     * {@code SET c = DEFAULT} in an UPDATE, an upsert's update and a MERGE, of a column whose default
     * is the clock or a random number: each replica computed its own value (an outside tester's
     * finding). The controller chooses it once; a MERGE that would insert without such a column is refused.
     */
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void assigningTheDefaultIsTheSameOnEveryReplica(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_assigned_defaults", "");
        boolean postgres = kind == Kind.POSTGRESQL;
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate(postgres
                    ? "CREATE TABLE d (id INTEGER PRIMARY KEY, at TIMESTAMP(6) DEFAULT now(),"
                            + " stamp TIMESTAMPTZ DEFAULT clock_timestamp(), r DOUBLE PRECISION DEFAULT random(), note TEXT)"
                    : "CREATE TABLE d (id INTEGER PRIMARY KEY, at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                            + " r DOUBLE DEFAULT (RAND()), n INTEGER NOT NULL DEFAULT 0,"
                            + " dt DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), note TEXT)");
            for (int i = 1; i <= 4; i++) {
                update(c, "INSERT INTO d (id, note) VALUES (?, 'row')", i);
            }
            List<String> assignments = postgres
                    ? List.of("UPDATE d SET at = DEFAULT WHERE id = 1", "UPDATE d SET r = DEFAULT, stamp = DEFAULT WHERE id = 2",
                            "INSERT INTO d (id, note) VALUES (3, 'x') ON CONFLICT (id) DO UPDATE SET at = DEFAULT, r = default",
                            "MERGE INTO d USING (SELECT 4 AS id) src ON d.id = src.id WHEN MATCHED THEN UPDATE SET r = DEFAULT")
                    : List.of("UPDATE d SET at = DEFAULT WHERE id = 1", "UPDATE d SET r = DEFAULT(r) WHERE id = 2",
                            "INSERT INTO d (id, note) VALUES (3, 'x') ON DUPLICATE KEY UPDATE at = DEFAULT, dt = DEFAULT",
                            "UPDATE d SET n = n + 1, dt = DEFAULT WHERE id = 4");
            for (String sql : assignments) {
                update(c, sql);
            }
            if (postgres) {
                SQLException refused = assertThrows(SQLException.class, () -> update(c, "MERGE INTO d USING (SELECT 5 AS id)"
                        + " src ON d.id = src.id WHEN NOT MATCHED THEN INSERT (id, note) VALUES (src.id, 'merged')"));
                assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            }
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(4, cluster.assertIdentical("d", "id"));
    }

    /** MariaDB's ON UPDATE CURRENT_TIMESTAMP(6): each replica would stamp its own microsecond. */
    @org.junit.jupiter.api.Test
    void mariadbOnUpdateTimestampsAreTheSameOnEveryReplica() throws Exception {
        cluster = new EngineCluster(dir, Kind.MARIADB, 2, "phalanx_defaults_upd", "");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE m (id INTEGER PRIMARY KEY, v INTEGER NOT NULL,"
                    + " Changed TIMESTAMP(6) NOT NULL DEFAULT '2000-01-01 00:00:00' ON UPDATE CURRENT_TIMESTAMP(6))");
            for (int i = 1; i <= 20; i++) {
                update(c, "INSERT INTO m (id, v) VALUES (?, 0)", i);
            }
            for (int i = 1; i <= 20; i++) {
                update(c, "UPDATE m SET v = v + 1 WHERE id = ?", i);
            }
            c.setAutoCommit(false);
            update(c, "UPDATE m AS x SET x.v = x.v + 1 WHERE x.id <= 10");
            c.commit();
            c.setAutoCommit(true);
            update(c, "UPDATE m SET v = 7, changed = '2001-01-01 00:00:00' WHERE id = 20"); // its own value kept
            for (String sql : List.of("UPDATE m JOIN (SELECT 1 AS one) x ON m.id = x.one SET m.v = 5",
                    "INSERT INTO m (id, v) VALUES (1, 9) ON DUPLICATE KEY UPDATE v = 9")) {
                SQLException e = assertThrows(SQLException.class, () -> update(c, sql), sql);
                assertEquals("0A000", e.getSQLState(), sql + ": " + e.getMessage());
            }
            update(c, "INSERT INTO m (id, v) VALUES (19, 9) ON DUPLICATE KEY UPDATE v = 9, changed = '2001-01-01 00:00:00'");
            assertEquals(0, Sql.one(c, "SELECT COUNT(*) FROM m WHERE changed = '2000-01-01 00:00:00'"),
                    "every row was stamped by its update");
            assertEquals(2, Sql.one(c, "SELECT COUNT(*) FROM m WHERE changed = '2001-01-01 00:00:00'"));
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(20, cluster.assertIdentical("m", "id"));
    }

    /**
     * The engines' other clocks written in a statement, and clocks with a precision ({@code NOW(6)}):
     * chosen once by the controller, so the replicas store the same microseconds (each replica's own
     * clock would differ), where a precision used to leave the call to each replica or break the text.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void clocksWrittenInAStatementAreTheSameOnEveryReplica(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_clocks", "");
        String stamp = switch (kind) {
            case POSTGRESQL -> "TIMESTAMP(6)";
            case MARIADB -> "DATETIME(6)";
            case SQLITE -> "TEXT";
        };
        String clocks = switch (kind) {
            case POSTGRESQL -> "clock_timestamp(), CURRENT_TIMESTAMP(6), LOCALTIMESTAMP(3), current_date + localtime";
            case MARIADB -> "NOW(6), SYSDATE(6), UTC_TIMESTAMP(6), CURRENT_TIMESTAMP(3)";
            case SQLITE -> "julianday('now'), strftime('%Y-%m-%d %H:%M:%f', 'now'), datetime('now', 'subsec'),"
                    + " unixepoch('now', 'subsec')";
        };
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE clocks (id INTEGER PRIMARY KEY, a " + stamp + ", b " + stamp + ", c " + stamp
                    + ", d " + stamp + ")");
            for (int i = 1; i <= 20; i++) {
                update(c, "INSERT INTO clocks VALUES (?, " + clocks + ")", i);
            }
            update(c, "UPDATE clocks SET a = " + switch (kind) {
                case POSTGRESQL -> "clock_timestamp()";
                case MARIADB -> "SYSDATE(6)";
                case SQLITE -> "julianday('now')";
            } + " WHERE id <= 10");
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(20, cluster.assertIdentical("clocks", "id"));
    }

    /**
     * A random UUID or random bytes written in a statement would differ on every replica: such a
     * write is refused (0A000) and writes nothing; a read may call them.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void writesCallingUnrepeatableFunctionsAreRefused(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_unrepeatable", "");
        List<String> calls = switch (kind) {
            // the backend's own database name, connection and transaction ids differ from replica to replica too
            case POSTGRESQL -> List.of("gen_random_uuid()::text", "current_database()", "pg_backend_pid()::text",
                    "txid_current()::text");
            case MARIADB -> List.of("UUID()", "CONNECTION_ID()", "DATABASE()");
            case SQLITE -> List.of("hex(randomblob(16))");
        };
        String call = calls.get(0);
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE tokens (id INTEGER PRIMARY KEY, token VARCHAR(40))");
            for (String each : calls) {
                for (String sql : List.of("INSERT INTO tokens VALUES (1, " + each + ")", "UPDATE tokens SET token = " + each)) {
                    SQLException e = assertThrows(SQLException.class, () -> update(c, sql), sql);
                    assertEquals("0A000", e.getSQLState(), sql + ": " + e.getMessage());
                }
            }
            assertEquals(0, Sql.one(c, "SELECT COUNT(*) FROM tokens"));
            assertEquals(1, Sql.one(c, "SELECT COUNT(*) FROM (SELECT " + call + " AS t) x"), "a read may call it");
            update(c, "INSERT INTO tokens VALUES (1, ?)", java.util.UUID.randomUUID().toString()); // what to do instead
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(1, cluster.assertIdentical("tokens", "id"));
    }
}
