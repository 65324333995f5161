package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;
import static org.phalanx.controller.it.Sql.text;
import static org.phalanx.controller.it.Sql.update;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.db.TestDatabases;

/**
 * Schema changes seen by a follower's read-only sessions (docs/distribution.md, 'Reads on the
 * followers'): DDL committed on the primary after the follower started serving reads is visible
 * there — through DatabaseMetaData and through reads of the new table and column, also a read
 * whose SQL text the follower had run before the change — without restarting anything. Its
 * readers ask their backends each time (no schema kept in between), on every engine.
 */
class DistributedSchemaChangesIT {
    private static final String DATABASE = "group_schema";
    @TempDir
    Path dir;
    private ControllerGroup group;

    @AfterEach
    void stop() {
        if (group != null) {
            group.close();
        }
        TestDatabases.dropPostgres(DATABASE);
        TestDatabases.dropMariaDb(DATABASE);
    }

    @Test
    void aFollowersReadersSeeTheSchemaAfterEachDdlItApplied() throws Exception {
        // a member on each engine, each keeping prepared reads its own way (PostgreSQL's server-side
        // statements fix their result's columns; SQLite's prepare again when the schema changes);
        // whichever is primary, both others serve read-only sessions here
        group = new ControllerGroup(dir, 1, List.of(List.of("jdbc:sqlite:" + dir.resolve("c1.db").toAbsolutePath()),
                List.of(TestDatabases.createPostgres(DATABASE)), List.of(TestDatabases.createMariaDb(DATABASE))),
                false, false, false);
        group.startAll();
        int primary = group.primary(60);
        assertTrue(primary >= 0, "no primary was elected" + group.outputs());
        List<Connection> readers = new ArrayList<>();
        try (Connection writer = DriverManager.getConnection(group.url())) {
            update(writer, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner VARCHAR(20))");
            update(writer, "INSERT INTO accounts VALUES (1, 'ann')");
            for (int m = 0; m < group.size(); m++) {
                if (m != primary) {
                    readers.add(DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + group.clientPort(m) + "/"
                            + ControllerGroup.VDB + "?user=app&password=secret&readOnly=true&followerReads=current"
                            + "&failoverTimeout=30000"));
                }
            }
            for (Connection reader : readers) {
                assertEquals(1, one(reader, "SELECT COUNT(*) FROM accounts"), "the follower serves the first table");
                // kept prepared there (PostgreSQL's driver prepares on the server from a statement's 5th run)
                for (int i = 0; i < 10; i++) {
                    assertEquals(List.of("id", "owner"), columns(reader, "SELECT * FROM accounts"));
                }
                assertEquals(List.of("accounts"), tables(reader));
            }

            update(writer, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body VARCHAR(20))");
            update(writer, "INSERT INTO notes VALUES (1, 'first')");
            update(writer, "ALTER TABLE accounts ADD COLUMN balance INTEGER");
            update(writer, "UPDATE accounts SET balance = 42 WHERE id = 1");
            for (Connection reader : readers) {
                // a read passes the barrier: once it answers, the follower has applied every DDL above
                assertEquals("first", text(reader, "SELECT body FROM notes WHERE id = 1"));
                assertEquals(42, one(reader, "SELECT balance FROM accounts WHERE id = 1"), "the new column's value");
                assertEquals(List.of("id", "owner", "balance"), columns(reader, "SELECT * FROM accounts"),
                        "a read the follower kept prepared from before the change sees the new column");
                assertEquals(List.of("accounts", "notes"), tables(reader), "getTables after CREATE TABLE");
                assertEquals(List.of("id", "owner", "balance"), metadataColumns(reader, "accounts"),
                        "getColumns after ALTER TABLE ... ADD COLUMN");
            }

            update(writer, "DROP TABLE notes");
            for (Connection reader : readers) {
                assertEquals(1, one(reader, "SELECT COUNT(*) FROM accounts"));
                assertEquals(List.of("accounts"), tables(reader), "getTables after DROP TABLE");
            }
        } finally {
            for (Connection reader : readers) {
                reader.close();
            }
        }
    }

    /** The column labels of a query's result. */
    private static List<String> columns(Connection c, String sql) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                names.add(rs.getMetaData().getColumnLabel(i).toLowerCase());
            }
        }
        return names;
    }

    /** The tables DatabaseMetaData lists, in its order. */
    private static List<String> tables(Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                names.add(rs.getString("TABLE_NAME").toLowerCase());
            }
        }
        return names;
    }

    /** The columns DatabaseMetaData gives for a table, in their order. */
    private static List<String> metadataColumns(Connection c, String table) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getColumns(null, null, table, "%")) {
            while (rs.next()) {
                names.add(rs.getString("COLUMN_NAME").toLowerCase());
            }
        }
        return names;
    }
}
