package org.phalanx.requestmanager.session;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Types;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SqlLexer;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.session.AdvisoryLocks.Holds;

/**
 * A {@code SELECT} of one advisory-lock function, answered by the controller's
 * {@link AdvisoryLocks} instead of a backend: PostgreSQL {@code pg_advisory_lock},
 * {@code pg_try_advisory_lock}, their {@code _xact_} forms, {@code pg_advisory_unlock},
 * {@code pg_advisory_unlock_all}; MariaDB {@code GET_LOCK}, {@code RELEASE_LOCK},
 * {@code IS_FREE_LOCK}, {@code IS_USED_LOCK}, {@code RELEASE_ALL_LOCKS}. The arguments are
 * literals or parameters. The shared PostgreSQL forms are refused ({@code 0A000}).
 *
 * @param function the function's name, lower case
 * @param key      the lock's name in {@link AdvisoryLocks} ({@code pg:} key(s), {@code my:} name), or null
 * @param timeoutSeconds GET_LOCK's timeout (negative: none)
 * @param label    the result column's label: the alias given, else the function's name
 */
record AdvisoryLockCall(String function, String key, long timeoutSeconds, String label) {
    private static final Pattern CALL = Pattern.compile(
            "(?is)\\s*select\\s+([a-z_]+)\\s*\\(([^()]*)\\)\\s*(?:as\\s+(\\w+))?[\\s;]*");
    private static final List<String> FUNCTIONS = List.of("pg_advisory_lock", "pg_try_advisory_lock",
            "pg_advisory_xact_lock", "pg_try_advisory_xact_lock", "pg_advisory_unlock", "pg_advisory_unlock_all",
            "get_lock", "release_lock", "is_free_lock", "is_used_lock", "release_all_locks");
    /** Every advisory-lock function, the shared PostgreSQL ones too. */
    private static final List<String> ALL_FUNCTIONS = java.util.stream.Stream.concat(FUNCTIONS.stream(),
            java.util.stream.Stream.of("pg_advisory_lock_shared", "pg_try_advisory_lock_shared",
                    "pg_advisory_xact_lock_shared", "pg_try_advisory_xact_lock_shared", "pg_advisory_unlock_shared"))
            .toList();

    /**
     * Refuses a query or data change calling an advisory-lock function other than alone in a {@code
     * SELECT} ({@link #parse}): run on a pooled backend connection, its lock outlived the statement,
     * held by that connection for no session, while another session's call, answered by the
     * controller, did not see it (two sessions both got the lock; an outside tester's finding).
     * DDL (a procedure's body calling them) is left alone: it runs inside its caller's statement.
     */
    static void refuseElsewhere(String sql) throws SQLException {
        if (SqlLexer.containsIgnoreCase(sql, "lock") && SqlLexer.mayCall(sql, ALL_FUNCTIONS)) {
            throw new SQLFeatureNotSupportedException("advisory-lock functions are supported alone in a SELECT"
                    + " (SELECT GET_LOCK('name', 10), SELECT pg_advisory_lock(42)), not inside expressions, beside"
                    + " other columns or in data changes", SqlState.FEATURE_NOT_SUPPORTED.code());
        }
    }

    /** The call in {@code sql} with {@code params}, or null when it is not one. */
    static AdvisoryLockCall parse(String sql, List<Object> params) throws SQLException {
        if (!SqlLexer.containsIgnoreCase(sql, "lock")) { // every read naming no table comes here (a pool's SELECT 1)
            return null;
        }
        Matcher m = CALL.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        String function = m.group(1).toLowerCase(Locale.ROOT);
        if (function.startsWith("pg_") && function.contains("advisory") && function.endsWith("_shared")) {
            throw new SQLFeatureNotSupportedException("shared advisory locks (" + function + ") are not supported",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        if (!FUNCTIONS.contains(function)) {
            return null;
        }
        List<String> args = SelectedCall.arguments(m.group(2), params);
        if (args == null) {
            return null;
        }
        String label = m.group(3) != null ? m.group(3) : function;
        if (function.endsWith("_all") || function.equals("release_all_locks")) {
            return new AdvisoryLockCall(function, null, -1, label);
        }
        if (function.startsWith("pg_")) {
            return args.isEmpty() || args.size() > 2 ? null
                    : new AdvisoryLockCall(function, "pg:" + String.join(",", args), -1, label);
        }
        if (args.isEmpty() || function.equals("get_lock") != (args.size() == 2)) {
            return null;
        }
        long timeout = function.equals("get_lock") ? (long) Double.parseDouble(args.get(1)) : -1;
        return new AdvisoryLockCall(function, "my:" + args.get(0).toLowerCase(Locale.ROOT), timeout, label);
    }

    /**
     * Runs the call for {@code session}, waiting for a lock at most {@code lockTimeoutMillis} where
     * PostgreSQL would wait without limit ({@code 55P03} then, as its {@code lock_timeout}).
     */
    Result run(AdvisoryLocks locks, Object session, boolean inTransaction, long lockTimeoutMillis) throws SQLException {
        try {
            return switch (function) {
                case "pg_advisory_lock", "pg_advisory_xact_lock" -> {
                    boolean xact = function.contains("xact");
                    if (!locks.lock(key, session, xact && inTransaction, lockTimeoutMillis)) {
                        throw new SQLException("canceling statement due to lock timeout: advisory lock " + key
                                + " is held by another session", SqlState.LOCK_NOT_AVAILABLE.code());
                    }
                    releaseIfStatementLevel(locks, session, xact, inTransaction);
                    yield row(Types.VARCHAR, "void", "");
                }
                case "pg_try_advisory_lock", "pg_try_advisory_xact_lock" -> {
                    boolean xact = function.contains("xact");
                    boolean got = locks.lock(key, session, xact && inTransaction, 0);
                    if (got) {
                        releaseIfStatementLevel(locks, session, xact, inTransaction);
                    }
                    yield row(Types.BOOLEAN, "bool", got);
                }
                case "pg_advisory_unlock" -> row(Types.BOOLEAN, "bool", locks.unlock(key, session));
                case "pg_advisory_unlock_all" -> {
                    locks.release(session, Holds.SESSION);
                    yield row(Types.VARCHAR, "void", "");
                }
                case "get_lock" -> row(Types.BIGINT, "BIGINT",
                        locks.lock(key, session, false, timeoutSeconds < 0 ? -1 : timeoutSeconds * 1000) ? 1L : 0L);
                case "release_lock" -> {
                    if (!locks.isHeld(key)) {
                        yield row(Types.BIGINT, "BIGINT", null);
                    }
                    yield row(Types.BIGINT, "BIGINT", locks.unlock(key, session) ? 1L : 0L);
                }
                case "is_free_lock" -> row(Types.BIGINT, "BIGINT", locks.isHeld(key) ? 0L : 1L);
                case "is_used_lock" -> {
                    Object holder = locks.holder(key);
                    yield row(Types.BIGINT, "BIGINT", holder == null ? null : (long) System.identityHashCode(holder));
                }
                case "release_all_locks" -> row(Types.BIGINT, "BIGINT", (long) locks.release(session, Holds.SESSION));
                default -> throw new IllegalStateException(function);
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for advisory lock " + key, SqlState.QUERY_CANCELED.code());
        }
    }

    /** A transaction-level lock taken outside a transaction lasts only as long as the statement. */
    private void releaseIfStatementLevel(AdvisoryLocks locks, Object session, boolean xact, boolean inTransaction) {
        if (xact && !inTransaction) {
            locks.unlock(key, session);
        }
    }

    private Result row(int type, String typeName, Object value) throws SQLException {
        return SelectedCall.row(label, type, typeName, value);
    }
}
