package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;
import org.phalanx.requestmanager.api.BackendState;

/**
 * A backend that fails in the middle of a transaction after running an insert whose key its engine
 * generates (PostgreSQL's sequence, MariaDB's AUTO_INCREMENT: neither gives the key back) replays
 * that insert when it is enabled again. Its own counter would hand out the next key, so the
 * replica would hold the row under another key than the others — and every later insert too. With a
 * recovery log the controller chooses those keys and the log carries them (docs/heterogeneous.md,
 * Generated keys): the replica ends identical, and the application got the keys the rows hold.
 */
class KeysReplayedIT extends WithEngineCluster {
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void aBackendThatFailedAfterAnInsertReplaysItWithTheSameKey(Kind kind) throws Exception {
        List<Long> keys = new ArrayList<>();
        try (Connection c = itemsWithLog(kind, "phalanx_keys_replayed"); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE marks (v INTEGER NOT NULL)");
            keys.add(insert(c, "before"));

            // b2 runs the insert, then fails before the transaction's next statement: it is taken out
            c.setAutoCommit(false);
            cluster.slow().breakBefore = sql -> sql.contains("marks");
            keys.add(insert(c, "in the failed one's transaction"));
            s.executeUpdate("INSERT INTO marks (v) VALUES (1)");
            c.commit();
            c.setAutoCommit(true);
            awaitDisabled("b2"); // answered after the first backend: b2's failure may come after
            keys.add(insert(c, "while it is out"));

            cluster.slow().reset();
            cluster.vdb().enableBackend("b2");
            cluster.assertAllEnabled();
            keys.add(insert(c, "after"));

            assertStoredKeys(s, keys);
        }
        cluster.stopController();
        assertEquals(4, cluster.assertIdentical("items", "id"));
        // the backends' own counters were not used: a direct insert names its key (or sets the counter first)
        try (Connection direct = cluster.direct("b1"); Statement s = direct.createStatement()) {
            if (kind == Kind.POSTGRESQL) {
                assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO items (id, name) VALUES (5, 'x')"),
                        "GENERATED ALWAYS still refuses a key given without OVERRIDING SYSTEM VALUE");
            }
        }
    }

    /**
     * With the keys chosen here, a prepared batch of inserts still runs as one JDBC batch on each
     * backend (the keys are its first parameter, so every element has one text), in a transaction
     * and in auto-commit, and the application gets the keys the rows hold.
     */
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void aBatchWhoseKeysTheControllerChoosesRunsAsOneBatch(Kind kind) throws Exception {
        List<Long> keys = new ArrayList<>();
        try (Connection c = itemsWithLog(kind, "phalanx_keys_batch"); Statement s = c.createStatement()) {
            List<String> ran = Collections.synchronizedList(new ArrayList<>());
            cluster.slow().breakBefore = sql -> ran.add(sql) && false; // sees what b2 runs, breaks nothing
            keys.add(insert(c, "first: the controller learns the table"));
            awaitCommitted(ran, 0);
            for (boolean autoCommit : new boolean[] {false, true}) {
                c.setAutoCommit(autoCommit);
                int from = ran.size();
                keys.addAll(batch(c, 50, autoCommit ? "auto-commit" : "transaction"));
                if (!autoCommit) {
                    c.commit();
                }
                awaitCommitted(ran, from);
                List<String> batch = List.copyOf(ran.subList(from, ran.size()));
                assertEquals(1, batch.stream().filter(sql -> sql.contains("items")).count(),
                        "one execution of the batch on b2, not one per row: " + batch);
            }
            assertStoredKeys(s, keys);
        }
        cluster.stopController();
        assertEquals(101, cluster.assertIdentical("items", "id"));
    }

    /** Two backends of the engine with a recovery log, and a table {@code items} whose key the engine generates. */
    /**
     * Inserts whose keys the engine chooses ({@code INSERT ... SELECT}, {@code INSERT IGNORE}...)
     * beside those the controller keys: its counter follows them, where it handed their keys out
     * again — a duplicate key, and under {@code INSERT IGNORE} a row silently lost. (MariaDB: its
     * AUTO_INCREMENT moves past the keys the controller gives; PostgreSQL's identity sequence does
     * not, see docs/heterogeneous.md, Generated keys.)
     */
    @Test
    void insertsWhoseKeysTheEngineChoosesMoveTheControllersCounter() throws Exception {
        try (Connection c = itemsWithLog(Kind.MARIADB, "phalanx_keys_engine"); Statement s = c.createStatement()) {
            insert(c, "a");
            assertEquals(1, s.executeUpdate("INSERT INTO items (name) SELECT 'b'"));
            assertEquals(1, s.executeUpdate("INSERT IGNORE INTO items (name) VALUES ('c')"));
            insert(c, "d");
            assertEquals(1, s.executeUpdate("INSERT INTO items (name) SELECT 'e'"));
            insert(c, "f");
            try (ResultSet rs = s.executeQuery("SELECT name FROM items ORDER BY id")) {
                StringBuilder names = new StringBuilder();
                while (rs.next()) {
                    names.append(rs.getString(1));
                }
                assertEquals("abcdef", names.toString(), "every row, in the order inserted");
            }
        }
        cluster.stopController();
        assertEquals(6, cluster.assertIdentical("items", "id"));
    }

    private Connection itemsWithLog(Kind kind, String database) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, database, "", "", "<recoveryLog dir=\"log\"/>");
        String identity = kind == Kind.POSTGRESQL ? "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
                : "BIGINT AUTO_INCREMENT PRIMARY KEY";
        Connection c = cluster.connect();
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE items (id " + identity + ", name VARCHAR(40) NOT NULL)");
        }
        return c;
    }

    private static void assertStoredKeys(Statement s, List<Long> keys) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT id FROM items ORDER BY id")) {
            List<Long> stored = new ArrayList<>();
            while (rs.next()) {
                stored.add(rs.getLong(1));
            }
            assertEquals(keys, stored, "the keys the application got are the rows' keys");
        }
    }

    /** Until b2 has committed what it ran from {@code from} on (the answer came after b1): its applied position comes last. */
    private static void awaitCommitted(List<String> ran, int from) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            synchronized (ran) {
                List<String> since = ran.subList(from, ran.size());
                int insert = since.stream().map(sql -> sql.contains("items")).toList().indexOf(true);
                if (insert >= 0 && since.subList(insert, since.size()).stream().anyMatch(sql -> sql.contains("applied"))) {
                    return;
                }
            }
            Thread.sleep(50);
        }
    }

    private static List<Long> batch(Connection c, int rows, String name) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO items (name) VALUES (?)",
                Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 0; i < rows; i++) {
                p.setString(1, name + " " + i);
                p.addBatch();
            }
            assertEquals(rows, p.executeBatch().length);
            List<Long> keys = new ArrayList<>();
            try (ResultSet k = p.getGeneratedKeys()) {
                while (k.next()) {
                    keys.add(k.getLong(1));
                }
            }
            return keys;
        }
    }

    private void awaitDisabled(String backend) throws InterruptedException {
        for (int i = 0; i < 200 && cluster.vdb().backendStates().get(backend) != BackendState.DISABLED; i++) {
            Thread.sleep(50);
        }
        assertEquals(BackendState.DISABLED, cluster.vdb().backendStates().get(backend));
    }

    private static long insert(Connection c, String name) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO items (name) VALUES (?)",
                Statement.RETURN_GENERATED_KEYS)) {
            p.setString(1, name);
            p.executeUpdate();
            try (ResultSet k = p.getGeneratedKeys()) {
                k.next();
                return k.getLong(1);
            }
        }
    }
}
