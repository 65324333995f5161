package org.phalanx.requestmanager.hetero;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.testkit.db.TestDatabases;

/**
 * Every engine's metadata names the key column portable DDL created, so the controller can
 * learn it (and the current MAX) from whichever replica it asks.
 */
class ControllerKeysTest {
    private static final String DB = "phalanx_keys_test";
    private static final String DDL = "CREATE TABLE things (id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
            + " name VARCHAR(20))";

    @TempDir
    Path dir;

    @Test
    void sqlite() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("k.db"))) {
            check(c, Engine.SQLITE);
        }
    }

    @Test
    void postgresql() throws SQLException {
        String url = TestDatabases.createPostgres(DB);
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            check(c, Engine.POSTGRESQL);
        } finally {
            TestDatabases.dropPostgres(DB);
        }
    }

    @Test
    void mariadb() throws SQLException {
        String url = TestDatabases.createMariaDb(DB);
        try (Connection c = DriverManager.getConnection(url, "root", "")) {
            check(c, Engine.MARIADB);
        } finally {
            TestDatabases.dropMariaDb(DB);
        }
    }

    private static void check(Connection c, Engine engine) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : PortableDdl.translate(DDL).get(engine)) {
                s.execute(sql);
            }
            // PostgreSQL's serial takes its values from a sequence, which currval() names
            boolean postgres = engine == Engine.POSTGRESQL;
            String sequence = postgres ? "things_id_seq" : null;
            assertEquals(new ControllerKeys.Learnt(Optional.of("id"), Types.INTEGER, 0, sequence, postgres),
                    ControllerKeys.learn(c, "things"));
            s.execute("INSERT INTO things (id, name) VALUES (41, 'x')");
            assertEquals(new ControllerKeys.Learnt(Optional.of("id"), Types.INTEGER, 41, sequence, postgres),
                    ControllerKeys.learn(c, "THINGS"));
            if (engine == Engine.MARIADB) {
                // where the table's AUTO_INCREMENT says its keys start
                s.execute("ALTER TABLE things AUTO_INCREMENT = 1000");
                assertEquals(999, ControllerKeys.learn(c, "things").max());
            }
            if (postgres) {
                // values the sequence handed out past the MAX (a function's nextval, rolled-back inserts) are not reused
                s.execute("SELECT setval('things_id_seq', 50)");
                assertEquals(50, ControllerKeys.learn(c, "things").max());
                // an identity column's sequence is found too
                s.execute("CREATE TABLE native (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name TEXT)");
                assertEquals(new ControllerKeys.Learnt(Optional.of("id"), Types.BIGINT, 0, "public.native_id_seq", true),
                        ControllerKeys.learn(c, "native"));
            }
            s.execute("CREATE TABLE plain (id INTEGER PRIMARY KEY, name VARCHAR(20))");
            assertEquals(Optional.empty(), ControllerKeys.learn(c, "plain").column(), "no generated key");
        }
        Result.Cached keys = ControllerKeys.keysResult("id", Types.BIGINT, new long[] {7, 8});
        assertEquals("id", keys.metaData().getColumnLabel(1));
        assertEquals(List.of(7L, 8L), keys.rows().stream().map(row -> row[0]).toList());
        // an INTEGER key as Integer, as the engine's driver gives it
        Result.Cached integers = ControllerKeys.keysResult("id", Types.INTEGER, new long[] {7});
        assertEquals(Types.INTEGER, integers.metaData().getColumnType(1));
        assertEquals(List.of(7), integers.rows().stream().map(row -> row[0]).toList());
    }
}
