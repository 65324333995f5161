package org.phalanx.requestmanager.backend;

import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;

/**
 * Gives a backend's error the standard SQLState the application expects whichever engine raised
 * it. PostgreSQL and MariaDB already report standard SQLStates (23505, 23000...); sqlite-jdbc
 * reports none, only SQLite's result codes (19 = SQLITE_CONSTRAINT, with the kind of constraint in
 * the extended code it prints in the message), so a constraint violation there gets its class 23
 * state here. The original error stays attached as the cause, its vendor code is kept.
 */
public final class SqlStates {
    /** SQLite's primary result code for a constraint violation. */
    private static final int SQLITE_CONSTRAINT = 19;
    /** MariaDB's ER_NO_DEFAULT_FOR_FIELD. */
    private static final int MARIADB_NO_DEFAULT = 1364;

    private SqlStates() {
    }

    public static SQLException normalize(SQLException e, Engine engine) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (engine == Engine.SQLITE && e.getSQLState() == null && (e.getErrorCode() & 0xFF) == SQLITE_CONSTRAINT) {
            return new SQLIntegrityConstraintViolationException(message, sqliteConstraintState(message), e.getErrorCode(), e);
        }
        if (engine == Engine.MARIADB && e.getErrorCode() == MARIADB_NO_DEFAULT) {
            // a NOT NULL column left out of an INSERT: a not-null violation everywhere else (HY000 here)
            return new SQLIntegrityConstraintViolationException(message,
                    SqlState.NOT_NULL_VIOLATION.code(), e.getErrorCode(), e);
        }
        return e;
    }

    /** The extended code's name is in the message, e.g. "[SQLITE_CONSTRAINT_UNIQUE] A UNIQUE constraint failed". */
    private static String sqliteConstraintState(String message) {
        if (message.contains("SQLITE_CONSTRAINT_UNIQUE") || message.contains("SQLITE_CONSTRAINT_PRIMARYKEY")) {
            return SqlState.UNIQUE_VIOLATION.code();
        }
        if (message.contains("SQLITE_CONSTRAINT_NOTNULL")) {
            return SqlState.NOT_NULL_VIOLATION.code();
        }
        if (message.contains("SQLITE_CONSTRAINT_FOREIGNKEY")) {
            return SqlState.FOREIGN_KEY_VIOLATION.code();
        }
        if (message.contains("SQLITE_CONSTRAINT_CHECK")) {
            return SqlState.CHECK_VIOLATION.code();
        }
        return SqlState.INTEGRITY_CONSTRAINT_VIOLATION.code();
    }
}
