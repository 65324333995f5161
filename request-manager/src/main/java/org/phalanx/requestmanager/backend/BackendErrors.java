package org.phalanx.requestmanager.backend;

import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Tells apart the errors a backend can return, because each calls for a different reaction. */
public final class BackendErrors {
    /** SQLStates of lock conflicts, deadlocks detected by the engine and timeouts. */
    private static final Set<String> CONTENTION_STATES = Set.of(SqlState.SERIALIZATION_FAILURE.code(),
            SqlState.DEADLOCK_DETECTED.code(), SqlState.LOCK_NOT_AVAILABLE.code(), SqlState.QUERY_CANCELED.code(),
            SqlState.TIMEOUT_EXPIRED.code(), SqlState.CONNECTION_TIMEOUT_EXPIRED.code());
    /** MariaDB: lock wait timeout, deadlock. */
    private static final Set<Integer> MARIADB_CONTENTION_CODES = Set.of(1205, 1213);
    /**
     * MariaDB: a statement interrupted (1317), its connection killed (1927), past its session's
     * {@code max_statement_time} (1969), MySQL's {@code max_execution_time} (3024). Connector/J throws
     * them as {@link SQLTimeoutException}, but no lock was waited for: the same statement would be
     * interrupted again (retried as contention, a write was run again and again until the lock
     * timeout, 30 s, opening a connection each time).
     */
    private static final Set<Integer> MARIADB_INTERRUPTED_CODES = Set.of(1317, 1927, 1969, 3024);
    /** SQLite result codes SQLITE_BUSY and SQLITE_LOCKED (the extended codes keep them in the low byte). */
    private static final Set<Integer> SQLITE_CONTENTION_CODES = Set.of(5, 6);

    private BackendErrors() {
    }

    /**
     * Contention: another transaction held a lock. Not a sign the backend is broken, so it must
     * never disable a backend.
     */
    public static boolean isContention(SQLException e, Engine engine) {
        if (isPoolExhausted(e)) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (engine == Engine.MARIADB && t instanceof SQLException s
                    && MARIADB_INTERRUPTED_CODES.contains(s.getErrorCode())) {
                return false;
            }
            if (t instanceof SQLTimeoutException) {
                return true;
            }
            if (t instanceof SQLException s) {
                if (s.getSQLState() != null && CONTENTION_STATES.contains(s.getSQLState())) {
                    return true;
                }
                if (engine == Engine.MARIADB && MARIADB_CONTENTION_CODES.contains(s.getErrorCode())) {
                    return true;
                }
                if (engine == Engine.SQLITE && SQLITE_CONTENTION_CODES.contains(s.getErrorCode() & 0xFF)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The engine refused the statement itself: a data exception (22), a constraint violation (23),
     * a syntax error or unknown object (42), a feature it lacks (0A). The same statement on the
     * same engine would fail the same way; another engine may run it.
     */
    public static boolean isStatementError(SQLException e) {
        String state = e.getSQLState();
        return SqlState.DATA_EXCEPTION.isClassOf(state) || SqlState.INTEGRITY_CONSTRAINT_VIOLATION.isClassOf(state)
                || SqlState.SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION.isClassOf(state)
                || SqlState.FEATURE_NOT_SUPPORTED.isClassOf(state);
    }

    /**
     * The connection to the backend is gone (SQLState class 08 or a connection exception type), or
     * the server ended the session ({@link #SESSION_ENDED_BY_SERVER}).
     */
    public static boolean isConnectionFailure(SQLException e) {
        if (isPoolExhausted(e) || namesTheStatementsOutcome(e.getSQLState())) {
            return false;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLNonTransientConnectionException || t instanceof SQLTransientConnectionException
                    || t instanceof SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException s && (SqlState.CONNECTION_EXCEPTION.isClassOf(s.getSQLState())
                    || s.getSQLState() != null && SESSION_ENDED_BY_SERVER.contains(s.getSQLState()) || isClosedByPool(s))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The server answered by ending the session ({@link #SESSION_ENDED_BY_SERVER}): it ran nothing
     * of the statement it answered so (what it had run before, it answered first).
     */
    public static boolean isSessionEndedByServer(SQLException e) {
        return e.getSQLState() != null && SESSION_ENDED_BY_SERVER.contains(e.getSQLState());
    }

    /**
     * PostgreSQL's FATAL errors that end the session, not the statement: {@code 57P01} (a fast or
     * smart shutdown, pg_terminate_backend), {@code 57P02} (another process crashed), {@code 57P03}
     * (starting up or in recovery), {@code 57P05} (idle session timeout), {@code 25P03} (idle in
     * transaction session timeout). pgjdbc throws them as a plain
     * SQLException: taken for the write's own failure, they marked the backend failed (rebuilt from a
     * dump) where its connection had merely been cut (enabled again by replay).
     */
    private static final Set<String> SESSION_ENDED_BY_SERVER = Set.of("57P01", "57P02", "57P03", "57P05", "25P03");

    /**
     * A SQLState whose class says what became of the statement (a warning raised as an error, no
     * data, a cardinality, data or constraint violation, a syntax or access error, a missing
     * feature), whatever the exception's type: MariaDB Connector/J throws a strict-mode truncation
     * ({@code 01000}, error 1265) as a {@code SQLTransientConnectionException}, and taken for a lost
     * connection it disabled every backend at once.
     */
    private static boolean namesTheStatementsOutcome(String sqlState) {
        return sqlState != null && sqlState.length() == 5 && STATEMENT_CLASSES.contains(sqlState.substring(0, 2));
    }

    private static final Set<String> STATEMENT_CLASSES = Set.of("01", "02", "21", "22", "23", "42", "44", "0A");

    /**
     * HikariCP's answer on a connection it has already given up: after a connection error (class
     * 08) it closes the physical connection and every later call on the borrowed one fails so,
     * without a SQLState. A transaction's branch whose write lost the connection fails its commit
     * this way: a lost connection, not the engine refusing the commit.
     */
    private static boolean isClosedByPool(SQLException e) {
        return e.getSQLState() == null && "Connection is closed".equals(e.getMessage());
    }

    /**
     * The backend's pool was busy: HikariCP timed out waiting for a connection while it held some
     * ("total=10, active=9, idle=1": one may have been between two borrowers), and no attempt to
     * open a new one failed (that failure would be the cause). Busy, not broken. A pool that could
     * not open any connection in time (total=0) is not this: the backend may be unreachable.
     */
    static boolean isPoolExhausted(SQLException e) {
        if (e instanceof PoolExhausted) {
            return true;
        }
        if (!(e instanceof SQLTransientConnectionException) || e.getCause() != null || e.getMessage() == null) {
            return false;
        }
        Matcher m = POOL_STATE.matcher(e.getMessage());
        return m.find() && Integer.parseInt(m.group(1)) > 0;
    }

    /** HikariCP's pool state in its timeout message. */
    private static final Pattern POOL_STATE = Pattern.compile("Connection is not available.*\\(total=(\\d+), active=(\\d+)");
}
