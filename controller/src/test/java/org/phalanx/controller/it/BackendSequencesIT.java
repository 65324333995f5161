package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.phalanx.controller.it.Sql.update;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Over PostgreSQL with a recovery log the controller chooses the keys of inserts that leave a
 * serial or identity key out; each backend's sequence still follows them, as on one PostgreSQL
 * where the insert would have drawn them from it. It was left behind: {@code nextval} handed out
 * keys already stored, so a function inserting through its column's default, and the application
 * reaching a replica directly (after leaving Phalanx), failed with duplicate keys (an outside
 * tester's finding).
 */
class BackendSequencesIT extends WithEngineCluster {

    @Test
    void postgresqlSequencesFollowTheKeysTheControllerChooses() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_sequences_pg", "", "",
                "<recoveryLog dir=\"log\"/>");
        try (Connection c = cluster.connect()) {
            update(c, "CREATE TABLE serials (id SERIAL PRIMARY KEY, v INTEGER)");
            update(c, "CREATE TABLE identities (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v INTEGER)");
            update(c, "CREATE FUNCTION add_serial(x INTEGER) RETURNS INTEGER AS"
                    + " 'INSERT INTO serials (v) VALUES (x) RETURNING id' LANGUAGE sql");
            for (int i = 1; i <= 3; i++) {
                update(c, "INSERT INTO serials (v) VALUES (" + i + ")");
                update(c, "INSERT INTO identities (v) VALUES (" + i + ")");
            }
            c.setAutoCommit(false);
            update(c, "INSERT INTO serials (v) VALUES (4), (5)");
            c.commit();
            c.setAutoCommit(true);
            for (String backend : cluster.backends()) {
                assertEquals(5, lastValue(backend, "serials_id_seq"), backend);
                assertEquals(3, lastValue(backend, "identities_id_seq"), backend);
            }

            assertEquals(6, value(c, "SELECT nextval('serials_id_seq')"), "a key no row holds");
            assertEquals(7, value(c, "SELECT add_serial(70)"), "a function inserting through the default");
            update(c, "INSERT INTO serials (v) VALUES (8)"); // the controller's next key, past the function's
            assertEquals(8, value(c, "SELECT MAX(id) FROM serials"));
            assertEquals(7, value(c, "SELECT COUNT(DISTINCT id) FROM serials"));
        }
        // clients inserting side by side: each backend moves its sequence in its own order of the inserts
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            clients.add(CompletableFuture.runAsync(() -> {
                try (Connection c = cluster.connect()) {
                    for (int n = 0; n < 25; n++) {
                        update(c, "INSERT INTO serials (v) VALUES (0)");
                    }
                } catch (SQLException e) {
                    throw new CompletionException(e);
                }
            }));
        }
        CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        for (String backend : cluster.backends()) {
            assertEquals(8 + 8 * 25, lastValue(backend, "serials_id_seq"), backend);
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("serials", "id");
        cluster.assertIdentical("identities", "id");
        for (String backend : cluster.backends()) {
            try (Connection direct = cluster.direct(backend)) {
                // an application reaching the replica itself takes the next keys
                assertEquals(9 + 8 * 25, value(direct, "INSERT INTO serials (v) VALUES (9) RETURNING id"), backend);
                assertEquals(4, value(direct, "INSERT INTO identities (v) VALUES (4) RETURNING id"), backend);
            }
        }
    }

    private long lastValue(String backend, String sequence) throws SQLException {
        try (Connection direct = cluster.direct(backend)) {
            return value(direct, "SELECT last_value FROM " + sequence);
        }
    }

    private static long value(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
