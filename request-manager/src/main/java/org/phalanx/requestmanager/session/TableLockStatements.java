package org.phalanx.requestmanager.session;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backends;

/**
 * Statements that lock tables for the session rather than for a transaction. MariaDB's {@code LOCK
 * TABLES} and {@code FLUSH TABLES ... WITH READ LOCK} hold their locks on the connection that ran
 * them until {@code UNLOCK TABLES}: here that is a pooled connection per backend, which would go back
 * to the pool still holding them (the next client using it is refused every table it did not lock),
 * while the session's next statements run on other connections without them. They are refused
 * ({@code 0A000}); {@code UNLOCK TABLES}, with nothing ever locked, is answered as done. PostgreSQL's
 * {@code LOCK [TABLE]} belongs to the transaction, and runs in it as on one PostgreSQL; outside
 * one it fails as there ({@code 25P01}).
 */
final class TableLockStatements {
    private static final Pattern MARIADB_LOCK = Pattern.compile("(?is)\\s*lock\\s+tables?\\b.*");
    private static final Pattern MARIADB_UNLOCK = Pattern.compile("(?is)\\s*unlock\\s+tables?[\\s;]*");
    private static final Pattern MARIADB_FLUSH_LOCK = Pattern.compile(
            "(?is)\\s*flush\\s+(?:no_write_to_binlog\\s+|local\\s+)?tables?\\b.*\\b(?:read\\s+lock|for\\s+export)\\b.*");
    private static final Pattern POSTGRES_LOCK = Pattern.compile("(?is)\\s*lock\\b.*");

    private TableLockStatements() {
    }

    /**
     * The answer to {@code sql} if it is such a statement (null: it is not, or it runs as any other).
     *
     * @param inTransaction a transaction is open (auto-commit off)
     */
    static Result answer(String sql, Backends backends, boolean inTransaction) throws SQLException {
        char first = firstLetter(sql);
        if (first != 'l' && first != 'u' && first != 'f') {
            return null; // every statement passes here
        }
        if (backends.allSpeak(Engine.MARIADB)) {
            if (MARIADB_LOCK.matcher(sql).matches() || MARIADB_FLUSH_LOCK.matcher(sql).matches()) {
                throw new SQLFeatureNotSupportedException("LOCK TABLES and FLUSH TABLES ... WITH READ LOCK are not"
                        + " supported: their locks would stay on pooled backend connections, not with this session;"
                        + " use a transaction and SELECT ... FOR UPDATE (or GET_LOCK) instead",
                        SqlState.FEATURE_NOT_SUPPORTED.code());
            }
            return MARIADB_UNLOCK.matcher(sql).matches() ? new Result.UpdateCount(0, null) : null;
        }
        if (backends.allSpeak(Engine.POSTGRESQL) && !inTransaction && POSTGRES_LOCK.matcher(sql).matches()) {
            throw new SQLException("LOCK TABLE can only be used in transaction blocks",
                    SqlState.NO_ACTIVE_SQL_TRANSACTION.code());
        }
        return null;
    }

    private static char firstLetter(String sql) {
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (!Character.isWhitespace(c)) {
                return Character.toLowerCase(c);
            }
        }
        return ' ';
    }
}
