package org.phalanx.requestmanager.session;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backends;

/**
 * Statements whose effect stays with the backend connection that runs them, where a session's
 * statements run on pooled connections other clients use too, one per backend. Refused
 * ({@code 0A000}) rather than left there:
 * <ul>
 * <li>MariaDB's {@code LOCK TABLES} and {@code FLUSH TABLES ... WITH READ LOCK}: the connection
 *     would go back to the pool still holding the locks (the next client using it is refused every
 *     table it did not lock), while the session's next statements run elsewhere without them.
 *     {@code UNLOCK TABLES}, with nothing ever locked, is answered as done. PostgreSQL's
 *     {@code LOCK [TABLE]} belongs to the transaction and runs in it; outside one it fails as
 *     there ({@code 25P01}).</li>
 * <li>SQL-level prepared statements ({@code PREPARE}, {@code EXECUTE}, {@code DEALLOCATE},
 *     MariaDB's {@code EXECUTE IMMEDIATE}): the statement prepared on one connection is unknown on
 *     the next, and what runs is out of the controller's sight (its clocks and random values
 *     computed by each replica). JDBC prepared statements are the way.</li>
 * <li>XA transactions in SQL ({@code XA START ...}, PostgreSQL's {@code PREPARE TRANSACTION},
 *     {@code COMMIT PREPARED}): a branch bound to one connection per backend, which the
 *     controller's own transactions do not follow.</li>
 * <li>On MariaDB, a query assigning a user variable ({@code SELECT @m := MAX(v) FROM t},
 *     {@code SELECT MAX(v) INTO @m FROM t}): it
 *     runs on one backend, so the variable would exist there only, and a later write using it
 *     would store a different value on each replica. {@code SET @m = (SELECT MAX(v) FROM t)} is
 *     the session's, on every connection. A write assigning one ({@code UPDATE t SET rk = (@x := @x + 1)})
 *     likewise: it would set it on the backends' pooled connections, not in the session; so would a
 *     {@code CALL} passing one ({@code CALL p(3, @n)}, an OUT parameter), where other sessions saw it.</li>
 * </ul>
 */
final class ConnectionBoundStatements {
    private static final Pattern MARIADB_LOCK = Pattern.compile("(?is)\\s*lock\\s+tables?\\b.*");
    private static final Pattern MARIADB_UNLOCK = Pattern.compile("(?is)\\s*unlock\\s+tables?[\\s;]*");
    private static final Pattern MARIADB_FLUSH_LOCK = Pattern.compile(
            "(?is)\\s*flush\\s+(?:no_write_to_binlog\\s+|local\\s+)?tables?\\b.*\\b(?:read\\s+lock|for\\s+export)\\b.*");
    private static final Pattern POSTGRES_LOCK = Pattern.compile("(?is)\\s*lock\\b.*");
    private static final Pattern PREPARED = Pattern.compile(
            "(?is)\\s*(?:prepare\\s+(?!transaction\\b)\\w+\\s*(?:from|as|\\()|execute\\s+(?:immediate\\b|\\w+)"
                    + "|deallocate\\s+(?:prepare\\s+)?\\w+).*");
    private static final Pattern XA = Pattern.compile(
            "(?is)\\s*(?:xa\\s+\\w+|prepare\\s+transaction\\b|commit\\s+prepared\\b|rollback\\s+prepared\\b).*");
    private static final Pattern DEALLOCATE_ALL = Pattern.compile("(?is)\\s*deallocate\\s+(?:prepare\\s+)?all[\\s;]*");
    /** {@code @name :=} or {@code INTO @name} (not {@code @@system} variables; literals are left out first). */
    private static final Pattern CALL = Pattern.compile("(?is)\\s*call\\b.*");
    private static final Pattern USER_VARIABLE = Pattern.compile("(?<![@\\w])@[`\\w$]");
    private static final Pattern USER_VARIABLE_ASSIGNMENT = Pattern.compile("(?i)(?<!@)@[`\\w$.]+\\s*:=|\\binto\\s+@(?!@)");

    private ConnectionBoundStatements() {
    }

    /**
     * The answer to {@code sql} if it is such a statement (null: it is not, or it runs as any other).
     *
     * @param inTransaction a transaction is open (auto-commit off)
     */
    static Result answer(String sql, Backends backends, boolean inTransaction) throws SQLException {
        char first = firstLetter(sql);
        if ("xpcr".indexOf(first) >= 0 && XA.matcher(sql).matches()) {
            throw refused("XA transactions in SQL are not supported: their branch would be bound to one pooled"
                    + " connection per backend; use the connection's commit and rollback");
        }
        if ("ped".indexOf(first) >= 0 && PREPARED.matcher(sql).matches()) {
            if (DEALLOCATE_ALL.matcher(sql).matches()) {
                return new Result.UpdateCount(0, null); // a pooler's reset: nothing was prepared in SQL
            }
            throw refused("PREPARE, EXECUTE and DEALLOCATE in SQL are not supported: the statement would be prepared"
                    + " on one pooled backend connection only; use a JDBC PreparedStatement");
        }
        if (backends.allSpeak(Engine.MARIADB)) {
            if (first == 'c' && sql.indexOf('@') > 0 && CALL.matcher(sql).matches() && passesUserVariable(sql)) {
                throw refused("a CALL passing a user variable (CALL p(3, @n)) would set it, as an OUT or INOUT"
                        + " parameter, on the backends' pooled connections, where other sessions would see it, not in"
                        + " this session: pass values, and return results as a result set (SELECT in the procedure)");
            }
            if ("uidr".indexOf(first) >= 0 && sql.indexOf('@') > 0 && assignsUserVariable(sql)) {
                throw refused("a write assigning a user variable (UPDATE t SET c = (@v := @v + 1)) would set it on"
                        + " the backends' pooled connections, not in this session, whose @v would stay as it was:"
                        + " use SET @v = (SELECT ...) around the write, or a window function such as ROW_NUMBER()");
            }
            if (first == 's') {
                if (sql.indexOf('@') > 0 && sql.stripLeading().regionMatches(true, 0, "select", 0, 6)
                        && assignsUserVariable(sql)) {
                    throw refused("a query assigning a user variable (@v := ...) would set it on one backend"
                            + " connection only: use SET @v = (SELECT ...), which the session keeps on every connection,"
                            + " or a window function such as ROW_NUMBER()");
                }
                return null;
            }
            if ("lf".indexOf(first) >= 0 && (MARIADB_LOCK.matcher(sql).matches() || MARIADB_FLUSH_LOCK.matcher(sql).matches())) {
                throw refused("LOCK TABLES and FLUSH TABLES ... WITH READ LOCK are not supported: their locks would"
                        + " stay on pooled backend connections, not with this session; use a transaction and"
                        + " SELECT ... FOR UPDATE (or GET_LOCK) instead");
            }
            return first == 'u' && MARIADB_UNLOCK.matcher(sql).matches() ? new Result.UpdateCount(0, null) : null;
        }
        if (first == 'l' && backends.allSpeak(Engine.POSTGRESQL) && !inTransaction && POSTGRES_LOCK.matcher(sql).matches()) {
            throw new SQLException("LOCK TABLE can only be used in transaction blocks",
                    SqlState.NO_ACTIVE_SQL_TRANSACTION.code());
        }
        return null;
    }

    /** Whether the statement names a user variable ({@code @v}, not {@code @@system}) outside literals and comments. */
    private static boolean passesUserVariable(String sql) {
        return USER_VARIABLE.matcher(org.phalanx.requestmanager.analysis.SqlTemplate.of(sql)).find();
    }

    /** Whether the statement has {@code @v :=} or {@code INTO @v} outside literals and comments. */
    private static boolean assignsUserVariable(String sql) {
        return USER_VARIABLE_ASSIGNMENT.matcher(org.phalanx.requestmanager.analysis.SqlTemplate.of(sql)).find();
    }

    private static SQLFeatureNotSupportedException refused(String message) {
        return new SQLFeatureNotSupportedException(message, SqlState.FEATURE_NOT_SUPPORTED.code());
    }

    /** The statement's first character, in lower case (' ' for none): a filter cheap enough for every statement. */
    static char firstLetter(String sql) {
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (!Character.isWhitespace(c)) {
                return Character.toLowerCase(c);
            }
        }
        return ' ';
    }
}
