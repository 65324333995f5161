package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.controller.it.Sql.one;
import static org.phalanx.controller.it.Sql.update;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Temporary tables are the session's (issue 18): {@code CREATE TEMPORARY TABLE} works, the
 * session's statements on it — reads, writes, batches, joins with regular tables, inside
 * transactions — run where it lives (the session's own connection on one backend), no other
 * session sees it, it disappears with the session, and nothing of it reaches the other backends
 * or the recovery log. Two backends of each engine, with a recovery log.
 */
class TemporaryTablesIT extends WithEngineCluster {
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aTemporaryTableIsTheSessions(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_temp_tables", "", "", "<recoveryLog dir=\"log\"/>");
        try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(20) NOT NULL)");
            s.executeUpdate("INSERT INTO t VALUES (1, 'a')");
            s.executeUpdate("INSERT INTO t VALUES (2, 'b')");
        }
        try (Connection a = cluster.connect(); Connection other = cluster.connect()) {
            update(a, "CREATE TEMPORARY TABLE tmp (id INTEGER PRIMARY KEY, v VARCHAR(20) NOT NULL)");
            assertEquals(2, update(a, "INSERT INTO tmp SELECT id, v FROM t"), "a regular table read into it");
            update(a, "INSERT INTO tmp VALUES (3, 'c')");
            try (PreparedStatement batch = a.prepareStatement("INSERT INTO tmp VALUES (?, ?)")) {
                for (int id = 4; id <= 6; id++) {
                    batch.setInt(1, id);
                    batch.setString(2, "batch");
                    batch.addBatch();
                }
                assertArrayEquals(new int[] {1, 1, 1}, batch.executeBatch());
            }
            for (int i = 0; i < 10; i++) { // every read where it lives, whichever backend the balancer prefers
                assertEquals(6, one(a, "SELECT COUNT(*) FROM tmp"));
            }
            assertEquals(1, one(a, "SELECT t.id FROM t JOIN tmp ON t.id = tmp.id WHERE tmp.v = 'a'"));

            // in a transaction with a regular write: its rollback undoes both, its commit keeps both
            a.setAutoCommit(false);
            update(a, "INSERT INTO tmp VALUES (7, 'rolled back')");
            update(a, "UPDATE t SET v = 'rolled back' WHERE id = 1");
            assertEquals(7, one(a, "SELECT COUNT(*) FROM tmp"));
            a.rollback();
            update(a, "UPDATE t SET v = 'committed' WHERE id = 2");
            update(a, "UPDATE tmp SET v = 'committed' WHERE id = 3");
            a.commit();
            a.setAutoCommit(true);
            assertEquals(6, one(a, "SELECT COUNT(*) FROM tmp"));
            assertEquals(1, one(a, "SELECT COUNT(*) FROM tmp WHERE v = 'committed'"));

            // another session: no such table; its own of the same name is another table
            assertThrows(SQLException.class, () -> one(other, "SELECT COUNT(*) FROM tmp"));
            update(other, "CREATE TEMPORARY TABLE tmp (id INTEGER PRIMARY KEY, v VARCHAR(20) NOT NULL)");
            assertEquals(0, one(other, "SELECT COUNT(*) FROM tmp"));
            assertEquals(6, one(a, "SELECT COUNT(*) FROM tmp"));

            // what the other backends could not replicate is refused, and disables nothing
            SQLException refused = assertThrows(SQLException.class,
                    () -> update(a, "INSERT INTO t SELECT id + 10, v FROM tmp"));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());
            // through IN (SELECT ... FROM tmp) it can: the subquery's values are written into the statement
            assertEquals(1, update(a, "UPDATE t SET v = 'via temp' WHERE id IN (SELECT id FROM tmp WHERE v = 'a')"));

            update(a, "DROP TABLE tmp");
            assertThrows(SQLException.class, () -> one(a, "SELECT COUNT(*) FROM tmp"));
            update(a, "CREATE TEMPORARY TABLE tmp (id INTEGER PRIMARY KEY)");
            update(a, "INSERT INTO tmp VALUES (1)");
            assertEquals(1, one(a, "SELECT COUNT(*) FROM tmp"));
        }
        // the first temporary table of a transaction that has already written everywhere: its branch
        // on one backend becomes the session's home (Hibernate creates its id tables so on MariaDB)
        try (Connection late = cluster.connect()) {
            late.setAutoCommit(false);
            update(late, "INSERT INTO t VALUES (10, 'late')");
            update(late, "CREATE TEMPORARY TABLE late_ids (id INTEGER PRIMARY KEY)");
            assertEquals(3, update(late, "INSERT INTO late_ids SELECT id FROM t"), "it sees the transaction's insert");
            late.commit();
            late.setAutoCommit(true);
            assertEquals(3, one(late, "SELECT COUNT(*) FROM late_ids"), "a temporary table outlives the transaction");
            update(late, "DELETE FROM t WHERE id = 10");
        }
        try (Connection later = cluster.connect()) { // closing the session dropped it
            assertThrows(SQLException.class, () -> one(later, "SELECT COUNT(*) FROM late_ids"));
            assertThrows(SQLException.class, () -> one(later, "SELECT COUNT(*) FROM tmp"));
            assertEquals(2, one(later, "SELECT COUNT(*) FROM t"));
        }
        cluster.assertAllEnabled();
        for (String backend : cluster.backends()) {
            try (Connection direct = cluster.direct(backend)) {
                assertEquals(List.of("t"), regularTables(direct), "only the regular table on " + backend);
                assertEquals(1, one(direct, "SELECT COUNT(*) FROM t WHERE v = 'committed'"), backend);
                assertEquals(0, one(direct, "SELECT COUNT(*) FROM t WHERE v = 'rolled back'"), backend);
                assertEquals(1, one(direct, "SELECT COUNT(*) FROM t WHERE v = 'via temp'"), backend);
            }
        }

        // a backend replaying the log meanwhile replays the regular writes only
        String b2 = cluster.backends().get(1);
        cluster.vdb().disableBackend(b2);
        try (Connection a = cluster.connect()) {
            update(a, "CREATE TEMPORARY TABLE staging (id INTEGER PRIMARY KEY, v VARCHAR(20) NOT NULL)");
            a.setAutoCommit(false);
            update(a, "INSERT INTO staging VALUES (3, 'c')");
            update(a, "INSERT INTO t VALUES (3, 'c')");
            update(a, "UPDATE t SET v = 'replayed' WHERE id IN (SELECT id FROM staging)"); // in the log with its values
            a.commit();
            a.setAutoCommit(true);
            update(a, "UPDATE staging SET v = 'd'");
        }
        cluster.vdb().enableBackend(b2);
        cluster.assertAllEnabled();
        cluster.assertIdentical("t", "id");
    }

    /**
     * The backend where a session's temporary tables live leaves service: the session's next
     * statement on them fails with 08006 (they are gone, as with a lost connection to one
     * database); the other backend serves everything else.
     */
    @Test
    void temporaryTablesLostWithTheirBackendAreReportedAsSuch() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_temp_lost", "");
        try (Connection a = cluster.connect()) {
            update(a, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(a, "CREATE TEMPORARY TABLE tmp (id INTEGER PRIMARY KEY)");
            update(a, "INSERT INTO tmp VALUES (1)");
            List<String> holding = new ArrayList<>();
            for (String backend : cluster.backends()) {
                try (Connection direct = cluster.direct(backend)) { // PostgreSQL lists every session's temporary tables
                    if (one(direct, "SELECT COUNT(*) FROM pg_class WHERE relname = 'tmp' AND relpersistence = 't'") == 1) {
                        holding.add(backend);
                    }
                }
            }
            assertEquals(1, holding.size(), "it lives on one backend: " + holding);
            cluster.vdb().disableBackend(holding.get(0));
            SQLException lost = assertThrows(SQLException.class, () -> one(a, "SELECT COUNT(*) FROM tmp"));
            assertEquals("08006", lost.getSQLState(), lost.getMessage());
        }
        try (Connection b = cluster.connect()) {
            update(b, "INSERT INTO t VALUES (1)");
            assertEquals(1, one(b, "SELECT COUNT(*) FROM t"));
        }
    }

    private List<String> regularTables(Connection direct) throws SQLException {
        String sql = switch (cluster.kind) {
            case SQLITE -> "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'phalanx%'"
                    + " AND name NOT LIKE 'sqlite%' ORDER BY name";
            case POSTGRESQL -> "SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace"
                    + " AND relname NOT LIKE 'phalanx%' ORDER BY relname";
            case MARIADB -> "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
                    + " AND table_name NOT LIKE 'phalanx%' ORDER BY table_name";
        };
        List<String> names = new ArrayList<>();
        try (Statement s = direct.createStatement(); var rs = s.executeQuery(sql)) {
            while (rs.next()) {
                names.add(rs.getString(1).toLowerCase(java.util.Locale.ROOT));
            }
        }
        return names;
    }
}
