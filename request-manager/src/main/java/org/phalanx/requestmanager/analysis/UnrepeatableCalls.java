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
            "pg_current_xact_id", "inet_server_addr", "inet_server_port", "inet_client_addr", "inet_client_port",
            "pg_postmaster_start_time", "pg_conf_load_time", "pg_current_wal_lsn", "pg_current_wal_insert_lsn",
            "pg_current_snapshot", "txid_current_snapshot", "pg_my_temp_schema", "pg_relation_size",
            "pg_total_relation_size", "pg_table_size", "pg_indexes_size", "pg_database_size", "connection_id",
            "database", "schema");
    /** MariaDB's system variables that differ from server to server, or tell the connection's own state. */
    private static final java.util.regex.Pattern SERVER_VARIABLE = java.util.regex.Pattern.compile(
            "(?i)@@(?:session\\.|global\\.)?(timestamp|pseudo_thread_id|server_id|server_uuid|hostname|port|identity"
                    + "|last_insert_id|rand_seed1|rand_seed2|warning_count|error_count)\\b");
    /**
     * PostgreSQL's system columns: a row's transaction ids and physical place differ from replica to
     * replica (xmin is each one's own transaction counter), so a write naming one — optimistic locking
     * on xmin, a de-duplication on ctid — changes different rows, or stores different values, on each.
     * A ctid equal to another ctid matches a row to itself, which every replica does alike.
     */
    private static final java.util.List<String> SYSTEM_COLUMNS = java.util.List.of("xmin", "xmax", "cmin", "cmax", "ctid");

    private UnrepeatableCalls() {
    }

    /**
     * PostgreSQL's date/time inputs that read the clock: {@code 'now'} in a timestamp column (or
     * {@code 'today'}::date) is each replica's own time, unlike {@code now()}, which the controller
     * chooses once. A literal cannot be told from text without the column's type, so any is refused.
     */
    private static final Set<String> CLOCK_INPUTS = Set.of("now", "today", "tomorrow", "yesterday");

    /** The first of them {@code sql}, a query or data change, calls (in code, not in a literal or comment); or null. */
    public static String firstCall(String sql) {
        String call = PooledSessionCalls.firstCall(sql, FUNCTIONS);
        int select = call == null ? SqlAnalyzer.selectOfCreateTableAs(sql) : -1;
        return select < 0 ? call : PooledSessionCalls.firstCall(sql.substring(select), FUNCTIONS); // CREATE TABLE ... AS SELECT uuid()
    }

    /**
     * Whether a write picks its rows by a {@code LIMIT} (or {@code FETCH FIRST}) with no {@code ORDER
     * BY} anywhere ({@code UPDATE q SET st = 1 WHERE id IN (SELECT id FROM q WHERE st = 0 LIMIT 20)},
     * MariaDB's {@code DELETE ... LIMIT 1000}): which rows come first is each replica's physical order
     * (PostgreSQL's heap order differed between replicas after the same updates, reads having pruned
     * pages on one only; MariaDB's may follow another index), so each would change other rows — what
     * MySQL's statement-based replication calls unsafe.
     */
    public static boolean limitWithoutOrder(String sql) {
        boolean limited = SqlLexer.containsIgnoreCase(sql, "limit") && SqlLexer.containsWord(sql, "limit")
                || SqlLexer.containsIgnoreCase(sql, "fetch") && SqlLexer.containsWord(sql, "fetch");
        return limited && PooledSessionCalls.STATEMENTS.contains(SqlLexer.firstWord(sql)) && !SqlLexer.containsWord(sql, "order");
    }


    /**
     * Aggregates whose value follows the order their rows come in, and PostgreSQL's {@code ARRAY(SELECT
     * ...)}: without an ORDER BY, each replica's scan order.
     */
    private static final Set<String> ORDERED_AGGREGATES = Set.of("string_agg", "array_agg", "json_agg", "jsonb_agg",
            "json_object_agg", "jsonb_object_agg", "xmlagg", "group_concat", "json_arrayagg", "json_objectagg", "array");
    /** Window functions whose value follows the order of the window's rows (rank() gives peers one value: not these). */
    private static final Set<String> ORDERED_WINDOWS = Set.of("row_number", "ntile", "first_value", "last_value",
            "nth_value", "lag", "lead");
    private static final Set<String> ORDER_SENSITIVE = java.util.stream.Stream.concat(ORDERED_AGGREGATES.stream(),
            ORDERED_WINDOWS.stream()).collect(java.util.stream.Collectors.toUnmodifiableSet());
    private static final java.util.regex.Pattern CALL = java.util.regex.Pattern.compile("(?i)\\b(\\w+)\\s*\\(");
    private static final java.util.regex.Pattern DISTINCT_ON = java.util.regex.Pattern.compile("(?i)\\bdistinct\\s+on\\s*\\(");

    /**
     * The first call in {@code sql}, a data change or {@code CREATE TABLE ... AS SELECT}, whose value
     * follows the order in which rows are read and that gives none: {@code string_agg(name, ',')}
     * without an ORDER BY inside, {@code row_number() OVER ()} or {@code OVER (PARTITION BY a)} without
     * one, PostgreSQL's {@code DISTINCT ON} in a statement with no ORDER BY (which row of each group).
     * Each replica reads rows in its own physical order (PostgreSQL's heap order differed between
     * replicas after the same updates), so each would store something else. Null if none. Ties of an
     * ORDER BY are not seen.
     */
    public static String unorderedCall(String sql) {
        boolean distinctOn = SqlLexer.containsIgnoreCase(sql, "distinct");
        if (!distinctOn && !SqlLexer.mayCall(sql, ORDER_SENSITIVE)
                || !PooledSessionCalls.STATEMENTS.contains(SqlLexer.firstWord(sql)) && SqlAnalyzer.selectOfCreateTableAs(sql) < 0) {
            return null; // nearly every write
        }
        String code = SqlTemplate.of(sql);
        if (distinctOn && DISTINCT_ON.matcher(code).find() && !SqlLexer.containsWord(code, "order")) {
            return "DISTINCT ON";
        }
        java.util.regex.Matcher call = CALL.matcher(code);
        while (call.find()) {
            String name = call.group(1).toLowerCase(java.util.Locale.ROOT);
            if (!ORDER_SENSITIVE.contains(name)) {
                continue;
            }
            int close = SqlLexer.closing(code, call.end() - 1);
            if (close < 0) {
                return null; // not SQL the engines will run
            }
            boolean ordered = ORDERED_AGGREGATES.contains(name)
                    && SqlLexer.containsWord(code.substring(call.end(), close), "order") || orderedWindow(code, close + 1);
            if (!ordered) {
                return name;
            }
        }
        return null;
    }

    /**
     * Whether the call ending at {@code from} is followed (after a FILTER clause) by an OVER clause that
     * orders its rows; a named window ({@code OVER w}) by whether the statement orders anything.
     */
    private static boolean orderedWindow(String code, int from) {
        int k = SqlLexer.skipSpaces(code, from);
        if (code.regionMatches(true, k, "filter", 0, 6) && SqlLexer.opensParenthesis(code, k + 6)) {
            int close = SqlLexer.closing(code, SqlLexer.skipSpaces(code, k + 6));
            if (close < 0) {
                return false;
            }
            k = SqlLexer.skipSpaces(code, close + 1);
        }
        if (!code.regionMatches(true, k, "over", 0, 4)) {
            return false;
        }
        k = SqlLexer.skipSpaces(code, k + 4);
        if (k < code.length() && code.charAt(k) == '(') {
            int close = SqlLexer.closing(code, k);
            return close > 0 && SqlLexer.containsWord(code.substring(k, close), "order");
        }
        return SqlLexer.containsWord(code, "order"); // WINDOW w AS (ORDER BY ...)
    }

    /** Views of a server's own activity and state: each backend's differ (PostgreSQL's pg_locks, MariaDB's GLOBAL_STATUS...). */
    private static final java.util.regex.Pattern SERVER_VIEW = java.util.regex.Pattern.compile(
            "(?i)\\b(pg_locks|pg_stat_\\w+|pg_statio_\\w+|pg_prepared_xacts|global_status|session_status|processlist"
                    + "|innodb_\\w+)\\b");

    /** The first view of a server's own state {@code sql} reads, or null. */
    public static String serverView(String sql) {
        if (!SqlLexer.containsIgnoreCase(sql, "pg_") && !SqlLexer.containsIgnoreCase(sql, "status")
                && !SqlLexer.containsIgnoreCase(sql, "processlist") && !SqlLexer.containsIgnoreCase(sql, "innodb_")) {
            return null; // nearly every write
        }
        if (!PooledSessionCalls.STATEMENTS.contains(SqlLexer.firstWord(sql))) {
            return null; // CREATE VIEW ... FROM pg_stat_activity stores nothing
        }
        java.util.regex.Matcher m = SERVER_VIEW.matcher(SqlTemplate.of(sql));
        return m.find() ? m.group(1) : null;
    }

    /** The first MariaDB system variable of {@code sql} whose value is the server's or the connection's own, or null. */
    public static String serverVariable(String sql) {
        if (sql.indexOf("@@") < 0) {
            return null; // nearly every write
        }
        java.util.regex.Matcher m = SERVER_VARIABLE.matcher(SqlTemplate.of(sql));
        return m.find() ? m.group() : null;
    }

    /** The first of PostgreSQL's system columns {@code sql} names (in code), or null. */
    public static String systemColumn(String sql) {
        for (String column : SYSTEM_COLUMNS) {
            if (SqlLexer.containsIgnoreCase(sql, column) && SqlLexer.containsWord(sql, column)
                    && !(column.equals("ctid") && onlyMatchesRowsToThemselves(sql))) {
                return column;
            }
        }
        return null;
    }

    /** {@code book.ctid = b1_0.ctid}: a row matched to itself (Hibernate's UPDATE ... FROM a join), the same on every replica. */
    private static final java.util.regex.Pattern CTID_SELF_MATCH = java.util.regex.Pattern.compile(
            "(?i)[\\w.]*\\bctid\\s*=\\s*[\\w.]*\\bctid\\b");

    /** Whether every ctid of {@code sql} is in an equality of two ctids. */
    private static boolean onlyMatchesRowsToThemselves(String sql) {
        String code = CTID_SELF_MATCH.matcher(SqlTemplate.of(sql)).replaceAll("");
        return !SqlLexer.containsWord(code, "ctid");
    }

    /** The first string literal of {@code sql} that PostgreSQL's date/time input reads as the clock ({@code 'now'}), or null. */
    public static String clockLiteral(String sql) {
        int quote = sql.indexOf('\'') < 0 ? -1 : nextQuoteInCode(sql, 0); // most writes hold parameters, not literals
        while (quote >= 0) {
            int end = SqlLexer.skipNonCode(sql, quote);
            if (end - quote <= 14) { // the longest, ' tomorrow ' with a space either side
                String text = sql.substring(quote + 1, Math.max(quote + 1, end - 1)).strip().toLowerCase(java.util.Locale.ROOT);
                if (CLOCK_INPUTS.contains(text)) {
                    return sql.substring(quote, end);
                }
            }
            quote = nextQuoteInCode(sql, end);
        }
        return null;
    }

    /** The next single quote at or after {@code from} that opens a literal (comments and quoted names skipped). */
    private static int nextQuoteInCode(String sql, int from) {
        int i = from;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'') {
                return i;
            }
            int skipped = SqlLexer.skipNonCode(sql, i);
            i = skipped == i ? i + 1 : skipped;
        }
        return -1;
    }
}
