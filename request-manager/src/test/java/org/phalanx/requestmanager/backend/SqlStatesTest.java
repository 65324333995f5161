package org.phalanx.requestmanager.backend;

import org.phalanx.engine.Engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQLite's constraint errors (no SQLState from sqlite-jdbc) get the standard class 23 states. */
class SqlStatesTest {
    @TempDir
    Path dir;

    private SQLException sqliteError(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("t.db"));
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER CHECK (n > 0))");
            s.execute("INSERT OR IGNORE INTO t VALUES (1, 'a', 1)");
            return assertThrows(SQLException.class, () -> s.execute(sql));
        }
    }

    @Test
    void constraintViolationsGetTheirSqlStates() throws SQLException {
        assertState("23505", "INSERT INTO t VALUES (1, 'b', 1)");
        assertState("23505", "INSERT INTO t VALUES (2, 'a', 1)");
        assertState("23502", "INSERT INTO t (id) VALUES (3)");
        assertState("23514", "INSERT INTO t VALUES (4, 'c', -1)");
    }

    private void assertState(String expected, String sql) throws SQLException {
        SQLException raw = sqliteError(sql);
        SQLException normalized = SqlStates.normalize(raw, Engine.SQLITE);
        assertEquals(expected, normalized.getSQLState(), raw.getMessage());
        assertTrue(normalized instanceof SQLIntegrityConstraintViolationException);
        assertSame(raw, normalized.getCause());
        assertEquals(raw.getErrorCode(), normalized.getErrorCode());
    }

    @Test
    void otherErrorsAndOtherEnginesAreLeftAlone() throws SQLException {
        SQLException syntax = sqliteError("SELEKT 1");
        assertSame(syntax, SqlStates.normalize(syntax, Engine.SQLITE));
        SQLException pg = new SQLException("duplicate key", "23505");
        assertSame(pg, SqlStates.normalize(pg, Engine.POSTGRESQL));
    }
}
