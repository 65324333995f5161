package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.phalanx.testing.Sessions.update;
import static org.phalanx.testing.Sessions.value;

import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.testing.ServerDatabase;
import org.phalanx.testing.ServerReplicas;

/**
 * A query calling a function that writes ({@code SELECT add_w(1)}) ran as a read, on one replica,
 * and the replicas diverged: it is a write, whether the function was created through the virtual
 * database or found in the backends' catalog; a function that cannot write leaves the query a read.
 */
class WritingFunctionsTest {
    private ServerReplicas replicas;

    @AfterEach
    void stop() {
        if (replicas != null) {
            replicas.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aQueryCallingAFunctionThatWritesRunsOnEveryReplica(String engine) throws Exception {
        replicas = new ServerReplicas(engine, "phalanx_writing_functions");
        boolean pg = engine.equals("postgresql");
        for (ServerDatabase db : replicas.databases()) { // there before: known from the catalog
            try (Connection c = ServerReplicas.direct(db); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE w (id INTEGER PRIMARY KEY, v INTEGER)");
                st.execute(pg ? "CREATE FUNCTION add_old(i INT) RETURNS INT AS $$ BEGIN INSERT INTO w VALUES (i, i);"
                        + " RETURN i; END; $$ LANGUAGE plpgsql"
                        : "CREATE FUNCTION add_old(i INT) RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO w VALUES (i, i);"
                        + " RETURN i; END");
                st.execute(pg ? "CREATE FUNCTION twice(i INT) RETURNS INT AS 'SELECT 2 * i' LANGUAGE sql IMMUTABLE"
                        : "CREATE FUNCTION twice(i INT) RETURNS INT NO SQL DETERMINISTIC RETURN 2 * i");
            }
        }
        try (Session s = replicas.requestManager().openSession("u")) {
            update(s, pg ? "CREATE FUNCTION add_new(i INT) RETURNS INT AS $$ BEGIN INSERT INTO w VALUES (i, i);"
                    + " RETURN i; END; $$ LANGUAGE plpgsql"
                    : "CREATE FUNCTION add_new(i INT) RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO w VALUES (i, i);"
                    + " RETURN i; END");
            long writes = replicas.requestManager().statistics().writes();
            for (int i = 1; i <= 4; i++) { // reads go round the two replicas: a read would reach one of them
                assertEquals(i, ((Number) value(s, "SELECT " + (i % 2 == 0 ? "add_new" : "add_old") + "(" + i + ")")).intValue());
            }
            assertEquals(writes + 4, replicas.requestManager().statistics().writes(), "each ran as a write");
            if (pg) { // called in FROM, as a set-returning function is
                assertEquals(5, ((Number) value(s, "SELECT * FROM add_new(5)")).intValue());
                assertEquals(6, ((Number) value(s, "SELECT x FROM add_old(6) x")).intValue());
                writes += 2;
            }
            assertEquals(8, ((Number) value(s, "SELECT twice(4)")).intValue());
            assertEquals(writes + 4, replicas.requestManager().statistics().writes(), "a function that cannot write: a read");
        }
        for (ServerDatabase db : replicas.databases()) {
            assertEquals(pg ? "1 2 3 4 5 6" : "1 2 3 4", ServerReplicas.ids(db, "w"), db.url());
        }
    }
}
