package org.phalanx.requestmanager.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.api.Request;

/** Read statements reused per connection on a real SQLite file. */
class ReadStatementsTest {
    @TempDir
    Path dir;
    Connection connection;
    final ReadStatements statements = new ReadStatements();

    @BeforeEach
    void createTable() throws SQLException {
        connection = open();
        try (Statement s = connection.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
            s.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        }
    }

    @AfterEach
    void close() throws SQLException {
        statements.clear();
        connection.close();
    }

    private Connection open() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("t.db"));
    }

    private static Request read(String sql, int maxRows, Object... params) {
        return new Request(sql, List.of(params), Request.Expect.ROWS, null, maxRows, 0, 0);
    }

    private List<String> run(Connection c, Request r) throws SQLException {
        ReadStatements.Statement s = statements.acquire(c, r.sql(), r, ReadShape.asAsked(r));
        List<String> values = new ArrayList<>();
        try (ResultSet rs = s.prepared().executeQuery()) {
            while (rs.next()) {
                values.add(rs.getString(rs.getMetaData().getColumnCount()));
            }
        }
        statements.release(s);
        return values;
    }

    @Test
    void aReleasedStatementServesTheNextReadOfTheSameSql() throws SQLException {
        Request r = read("SELECT v FROM t WHERE id = ?", 0, 1);
        ReadStatements.Statement first = statements.acquire(connection, r.sql(), r, ReadShape.asAsked(r));
        first.prepared().executeQuery().close();
        statements.release(first);
        ReadStatements.Statement second = statements.acquire(connection, r.sql(), read(r.sql(), 0, 2), ReadShape.asAsked(read(r.sql(), 0, 2)));
        assertSame(first.prepared(), second.prepared());
        try (ResultSet rs = second.prepared().executeQuery()) {
            assertTrue(rs.next());
            assertEquals("b", rs.getString(1), "bound with the new request's parameter");
        }
        statements.release(second);
        assertEquals(1, statements.size());
    }

    @Test
    void aStatementInUseIsNotHandedOutTwice() throws SQLException {
        Request r = read("SELECT v FROM t ORDER BY id", 0);
        ReadStatements.Statement first = statements.acquire(connection, r.sql(), r, ReadShape.asAsked(r));
        try (ResultSet open = first.prepared().executeQuery()) {
            assertTrue(open.next());
            ReadStatements.Statement second = statements.acquire(connection, r.sql(), r, ReadShape.asAsked(r));
            assertNotSame(first.prepared(), second.prepared());
            second.prepared().executeQuery().close();
            statements.release(second);
            assertTrue(open.next(), "the first result is still readable");
            assertEquals("b", open.getString(1));
        }
        statements.release(first);
        assertEquals(1, statements.size(), "one statement per SQL text is kept");
    }

    @Test
    void limitsAndParametersOfAnEarlierReadDoNotLeakIntoTheNext() throws SQLException {
        assertEquals(List.of("a"), run(connection, read("SELECT v FROM t WHERE id >= ? ORDER BY id", 1, 1)));
        assertEquals(List.of("a", "b", "c"), run(connection, read("SELECT v FROM t WHERE id >= ? ORDER BY id", 0, 1)));
        // a request that binds nothing must not run with the previous request's value
        assertEquals(List.of(), run(connection, read("SELECT v FROM t WHERE id >= ? ORDER BY id", 0)));
    }

    @Test
    void aReusedStatementSeesSchemaChanges() throws SQLException {
        assertEquals(List.of("a", "b", "c"), run(connection, read("SELECT * FROM t ORDER BY id", 0)));
        try (Statement s = connection.createStatement()) {
            s.executeUpdate("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'x'");
        }
        assertEquals(List.of("x", "x", "x"), run(connection, read("SELECT * FROM t ORDER BY id", 0)));
    }

    @Test
    void statementsOfClosedConnectionsAreDroppedWhenANewConnectionComes() throws SQLException {
        Connection other = open();
        run(other, read("SELECT v FROM t", 0));
        run(connection, read("SELECT v FROM t", 0));
        assertEquals(2, statements.size());
        other.close();
        Connection third = open();
        try {
            run(third, read("SELECT v FROM t", 0));
            assertEquals(2, statements.size(), "the closed connection's statement is gone");
        } finally {
            third.close();
        }
    }

    @Test
    void onlyTheMostRecentlyUsedStatementsAreKeptPerConnection() throws SQLException {
        for (int i = 0; i < ReadStatements.PER_CONNECTION + 10; i++) {
            run(connection, read("SELECT v FROM t WHERE id = " + i, 0));
        }
        assertEquals(ReadStatements.PER_CONNECTION, statements.size());
        assertFalse(connection.isClosed());
    }
}
