package org.phalanx.requestmanager.analysis;

import java.util.Set;

/**
 * Calls whose value no replica computes like another and that the controller does not choose for
 * them, as it chooses the clocks and {@code RAND()} ({@link MacroRewriter}): random UUIDs and bytes,
 * {@code timeofday()}; and calls that answer about the backend itself — its database's name, the
 * connection's id, PostgreSQL's transaction id — which differ from replica to replica. A single
 * literal would not do: one value per statement, where a multi-row write wants one per row (a unique
 * token each). A write calling one would leave each replica, and each replay of the recovery log,
 * with a value of its own, so it is refused; the application generates the value and passes it as
 * a parameter.
 */
public final class UnrepeatableCalls {
    /** In lower case; the same names refuse a column default that calls them ({@code write.DefaultValues}). */
    public static final Set<String> FUNCTIONS = Set.of("gen_random_uuid", "gen_random_bytes", "uuid_generate_v1",
            "uuid_generate_v1mc", "uuid_generate_v4", "uuid", "uuid_short", "sys_guid", "newid", "random_bytes",
            "randomblob", "timeofday", "current_database", "pg_backend_pid", "txid_current", "txid_current_if_assigned",
            "pg_current_xact_id", "inet_server_addr", "inet_server_port", "connection_id", "database");

    private UnrepeatableCalls() {
    }

    /** The first of them {@code sql}, a query or data change, calls (in code, not in a literal or comment); or null. */
    public static String firstCall(String sql) {
        return PooledSessionCalls.firstCall(sql, FUNCTIONS);
    }
}
