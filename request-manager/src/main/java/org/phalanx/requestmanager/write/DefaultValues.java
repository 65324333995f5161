package org.phalanx.requestmanager.write;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.InsertText;
import org.phalanx.requestmanager.analysis.MacroRewriter;
import org.phalanx.requestmanager.analysis.UnrepeatableCalls;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.analysis.SqlLexer;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.analysis.UpdateText;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.FirstAnswering;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.LockManager;

/**
 * Column defaults each backend would compute for itself — the time ({@code now()},
 * {@code CURRENT_TIMESTAMP}, SQLite's {@code 'now'}), a random number — are chosen once by the
 * controller, as it does for the same calls written in a statement: an INSERT that leaves such a
 * column out gets it added, with the value chosen, so every replica stores the same. A default
 * the controller cannot choose (a random UUID) refuses the INSERT: it must give the column. Only
 * {@code INSERT ... VALUES} with a column list is completed; the other forms that would leave such
 * a column to its default ({@code INSERT ... SELECT} without it, {@code DEFAULT} or
 * {@code DEFAULT VALUES}, PostgreSQL's row of fewer values than columns) are refused. An
 * assignment {@code c = DEFAULT} (an UPDATE's, an upsert's, a MERGE's; MariaDB's {@code DEFAULT(c)})
 * gets the value chosen likewise, and a MERGE whose INSERT leaves such a column out is refused.
 *
 * <p>MariaDB's {@code ON UPDATE CURRENT_TIMESTAMP} columns likewise: on a virtual database with
 * MariaDB backends, a single-table UPDATE that does not assign such a column assigns it the time
 * chosen by the controller. Unlike the engine's own, that assignment also moves the timestamp of a
 * row whose values the UPDATE leaves as they were (MariaDB then keeps it): the price of replicas
 * that agree. The forms that cannot be completed so (a multi-table UPDATE, {@code INSERT ... ON
 * DUPLICATE KEY UPDATE} not assigning the column) are refused.
 */
final class DefaultValues {
    /** Calls no backend computes like another, that the controller cannot choose for them. */
    private static final Pattern UNPREDICTABLE = Pattern.compile(
            "(?i)\\b(" + String.join("|", UnrepeatableCalls.FUNCTIONS) + ")\\s*\\(");
    /** PostgreSQL's other clocks, which the controller chooses as it chooses now(). */
    private static final Pattern OTHER_CLOCKS = Pattern.compile(
            "(?i)\\b(clock_timestamp|statement_timestamp|transaction_timestamp)\\s*\\(\\s*\\)");
    /** A precision, {@code CURRENT_TIMESTAMP(6)}: the value chosen has milliseconds. */
    private static final Pattern PRECISION = Pattern.compile("(?i)\\b(current_timestamp|localtimestamp|current_time)\\s*\\(\\s*\\d+\\s*\\)");
    /** SQLite's clock: strftime('%s', 'now'), datetime('now'). */
    private static final Pattern SQLITE_NOW = Pattern.compile("(?i)'now'");

    /**
     * What a table's columns do by themselves: the defaults that vary, the columns MariaDB sets at
     * each UPDATE; and how many columns it has.
     */
    record TableDefaults(Map<String, String> varying, List<String> onUpdate, int columns) {
    }

    private final Map<String, TableDefaults> byTable = new ConcurrentHashMap<>();
    private volatile long schemaSeen = -1;

    /**
     * The write with the varying defaults of the columns it leaves out written in, chosen now,
     * when it is an INSERT of one table about to run on {@code targets}.
     *
     * @param schemaChanges the schema-change count: the defaults known are forgotten when it moves
     */
    String complete(String sql, SqlAnalysis a, SessionState s, Transaction t, List<Backend> targets, long schemaChanges,
                    MacroRewriter macros) throws SQLException {
        if (a.kind() != StatementKind.WRITE) {
            return sql;
        }
        boolean insert = InsertText.mayBe(sql);
        // an INSERT the parser could not read (SQLite's INSERT OR IGNORE) still names its table
        Set<String> written = a.writtenTables();
        if (written.isEmpty()) {
            String table = insert ? InsertText.table(sql) : null;
            if (table == null) {
                return sql;
            }
            written = Set.of(table);
        }
        boolean update = !insert && UpdateText.mayBe(sql) && targets.stream().anyMatch(b -> b.engine() == Engine.MARIADB);
        boolean merge = !insert && startsWith(sql, "merge");
        // SET c = DEFAULT (an UPDATE, an upsert's update, a MERGE's): the column's default, computed where it runs
        boolean assignsDefault = !insert && !merge && SqlLexer.containsWord(sql, "default");
        if (!insert && !update && !merge && !assignsDefault) {
            return sql;
        }
        if (schemaChanges != schemaSeen) {
            byTable.clear();
            schemaSeen = schemaChanges;
        }
        if (written.size() > 1) { // a multi-table UPDATE (or a statement not understood)
            for (String table : written) {
                refuseLeft(table, defaults(table, s, t, targets).onUpdate(), "in a multi-table statement");
            }
            return sql;
        }
        String table = written.iterator().next();
        TableDefaults defaults = defaults(table, s, t, targets);
        sql = assignedDefaults(sql, table, defaults.varying(), macros);
        if (merge) {
            refuseMergeLeaving(sql, table, defaults.varying());
            return sql;
        }
        if (update) {
            return completeUpdate(sql, table, defaults.onUpdate(), macros);
        }
        if (!insert) {
            return sql;
        }
        String completed = completeInsert(sql, table, defaults, targets, macros);
        // (the search is skipped for most tables: it went through every INSERT's text)
        String onDuplicate = defaults.onUpdate().isEmpty() ? null : InsertText.onDuplicateKeyUpdate(completed);
        if (onDuplicate != null) { // its UPDATE is MariaDB's, and sets those columns itself
            Set<String> assigned = UpdateText.assignedIn(onDuplicate);
            refuseLeft(table, defaults.onUpdate().stream().filter(c -> !assigned.contains(c)).toList(),
                    "by ON DUPLICATE KEY UPDATE; assign it there");
        }
        return completed;
    }

    /** The defaults of {@code table}, read once per schema change. */
    private TableDefaults defaults(String table, SessionState s, Transaction t, List<Backend> targets) throws SQLException {
        // an unqualified name is the first table of that name on the session's search path
        String path = s.settings().statement("search_path");
        String key = path == null ? table : table + '\0' + path;
        TableDefaults defaults = byTable.get(key);
        if (defaults != null) {
            return defaults;
        }
        // where the session's earlier statements are done; inside its transaction once that has
        // written (its own DDL shows only there), never before: that would begin it early
        boolean written = t != null && (t.writtenTables().contains(LockManager.ALL)
                || t.writtenTables().contains(SchemaView.key(table)));
        defaults = FirstAnswering.read(s.tails().caughtUp(targets), b -> {
            Connection branch = written ? t.branches().get(b) : null;
            return branch != null ? defaults(branch, b.engine(), table)
                    // not its home: a branch may hold it
                    : b.onPooledConnection(s.user(), s.settings().at(null), c -> defaults(c, b.engine(), table));
        });
        byTable.put(key, defaults);
        return defaults;
    }

    /** Refuses the statement if it leaves MariaDB's ON UPDATE timestamp columns to each backend. */
    private static void refuseLeft(String table, List<String> onUpdate, String how) throws SQLException {
        if (!onUpdate.isEmpty()) {
            throw new SQLFeatureNotSupportedException("column " + onUpdate.get(0) + " of " + table + " is set ON UPDATE"
                    + " to the time, which each backend would take for itself " + how + ": the replicas would differ",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
    }

    private static String completeUpdate(String sql, String table, List<String> onUpdate, MacroRewriter macros)
            throws SQLException {
        if (onUpdate.isEmpty()) {
            return sql;
        }
        UpdateText update = UpdateText.of(sql);
        if (update == null) {
            refuseLeft(table, onUpdate, "in this form of UPDATE (one table, no JOIN, then SET)");
        }
        StringBuilder assignments = new StringBuilder();
        for (String column : onUpdate) {
            if (!update.assigned().contains(column)) {
                assignments.append(assignments.length() == 0 ? "" : ", ").append(column).append(" = ")
                        .append(macros.rewrite("CURRENT_TIMESTAMP"));
            }
        }
        return assignments.length() == 0 ? sql : update.withFirst(assignments.toString());
    }

    private static String completeInsert(String sql, String table, TableDefaults defaults, List<Backend> targets,
                                         MacroRewriter macros) throws SQLException {
        Map<String, String> varying = defaults.varying();
        if (varying.isEmpty()) {
            return sql;
        }
        InsertText insert = InsertText.of(sql);
        if (insert == null) {
            refuseUncompleted(sql, table, defaults, targets);
            return sql;
        }
        List<String> columns = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (Map.Entry<String, String> d : varying.entrySet()) {
            if (insert.columns().contains(d.getKey())) {
                if (InsertText.saysDefault(sql)) {
                    throw leftToDefault(table, d.getKey(), d.getValue(), "instead of DEFAULT");
                }
                continue;
            }
            String value = chosen(d.getValue(), macros);
            if (value == null) {
                throw leftToDefault(table, d.getKey(), d.getValue(), "in the INSERT");
            }
            columns.add(d.getKey());
            values.add(value);
        }
        return columns.isEmpty() ? sql : insert.with(columns, values);
    }

    /**
     * {@code sql} with each {@code c = DEFAULT} (and MariaDB's {@code DEFAULT(c)}) of a column whose
     * default varies replaced by a value chosen now: an UPDATE's, an upsert's ({@code ON CONFLICT DO
     * UPDATE}, {@code ON DUPLICATE KEY UPDATE}) and a MERGE's assignment each backend would compute
     * for itself (an outside tester's finding). A default the controller cannot choose refuses it.
     */
    private static String assignedDefaults(String sql, String table, Map<String, String> varying, MacroRewriter macros)
            throws SQLException {
        if (varying.isEmpty() || !SqlLexer.containsWord(sql, "default")) {
            return sql;
        }
        String result = sql;
        for (Map.Entry<String, String> d : varying.entrySet()) {
            String column = Pattern.quote(d.getKey());
            Pattern assigned = Pattern.compile("(?i)((?<![\\w.$])[`\"]?" + column + "[`\"]?\\s*=\\s*)default\\b(?!\\s*\\()"
                    + "|\\bdefault\\s*\\(\\s*[`\"]?" + column + "[`\"]?\\s*\\)");
            java.util.regex.Matcher m = assigned.matcher(result);
            if (!m.find()) {
                continue;
            }
            String value = chosen(d.getValue(), macros);
            if (value == null) {
                throw leftToDefault(table, d.getKey(), d.getValue(), "instead of DEFAULT");
            }
            StringBuilder out = new StringBuilder();
            do {
                m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(
                        (m.group(1) != null ? m.group(1) : "") + "(" + value + ")"));
            } while (m.find());
            result = m.appendTail(out).toString();
        }
        return result;
    }

    /** A MERGE whose INSERT leaves a varying default to each backend (no column list, or one without it) is refused. */
    private static void refuseMergeLeaving(String sql, String table, Map<String, String> varying) throws SQLException {
        java.util.regex.Matcher insert = MERGE_INSERT.matcher(sql);
        while (insert.find()) {
            Set<String> listed = new java.util.HashSet<>();
            if (insert.group(1) != null) {
                for (String c : insert.group(1).split(",")) {
                    listed.add(SqlAnalyzer.normalize(c.strip()));
                }
            }
            for (Map.Entry<String, String> d : varying.entrySet()) {
                if (!listed.contains(d.getKey())) {
                    throw leftToDefault(table, d.getKey(), d.getValue(), "in the MERGE's INSERT");
                }
            }
        }
    }

    /** A MERGE's {@code THEN INSERT [(columns)]}. */
    private static final Pattern MERGE_INSERT = Pattern.compile("(?is)\\bthen\\s+insert\\s*(?:\\(([^)]*)\\))?");

    private static boolean startsWith(String sql, String word) {
        String stripped = sql.stripLeading();
        return stripped.regionMatches(true, 0, word, 0, word.length());
    }

    /** An INSERT that is not VALUES with a column list: refused if it leaves a varying default to each backend. */
    private static void refuseUncompleted(String sql, String table, TableDefaults defaults, List<Backend> targets)
            throws SQLException {
        Map.Entry<String, String> first = defaults.varying().entrySet().iterator().next();
        Set<String> listed = InsertText.listedColumns(sql);
        if (listed != null) {
            for (Map.Entry<String, String> d : defaults.varying().entrySet()) {
                if (!listed.contains(d.getKey())) {
                    throw leftToDefault(table, d.getKey(), d.getValue(), "in the column list and the SELECT");
                }
            }
            return;
        }
        if (InsertText.saysDefault(sql)) {
            throw leftToDefault(table, first.getKey(), first.getValue(), "instead of DEFAULT");
        }
        String setList = InsertText.setList(sql);
        if (setList != null) { // MariaDB's INSERT INTO t SET a = 1: the columns it does not assign
            Set<String> assigned = UpdateText.assignedIn(setList);
            for (Map.Entry<String, String> d : defaults.varying().entrySet()) {
                if (!assigned.contains(d.getKey())) {
                    throw leftToDefault(table, d.getKey(), d.getValue(), "in the SET list");
                }
            }
            return;
        }
        // without a column list, MariaDB and SQLite want every column; PostgreSQL takes fewer
        boolean fewerAllowed = targets.stream().anyMatch(b -> b.engine() == Engine.POSTGRESQL);
        if (fewerAllowed && InsertText.firstRowWidth(sql) != defaults.columns()) {
            throw leftToDefault(table, first.getKey(), first.getValue(), "with a column list");
        }
    }

    private static SQLException leftToDefault(String table, String column, String def, String how) {
        return new SQLFeatureNotSupportedException("column " + column + " of " + table + " has the default " + def
                + ", which each backend would compute differently: the replicas would differ. Give the column a value "
                + how, SqlState.FEATURE_NOT_SUPPORTED.code());
    }

    /** The default with its clock or random calls replaced by values chosen now; null if it has others. */
    private static String chosen(String def, MacroRewriter macros) {
        String d = OTHER_CLOCKS.matcher(def).replaceAll("now()");
        d = PRECISION.matcher(d).replaceAll("$1");
        d = SQLITE_NOW.matcher(d).replaceAll(java.util.regex.Matcher.quoteReplacement(macros.rewrite("CURRENT_TIMESTAMP")));
        d = macros.rewrite(d);
        return UNPREDICTABLE.matcher(d).find() || MacroRewriter.hasMacro(d) ? null : d;
    }

    private static TableDefaults defaults(Connection c, Engine engine, String table) throws SQLException {
        Map<String, String> varying = new LinkedHashMap<>();
        int columns = columns(c, engine, table, varying);
        return new TableDefaults(Map.copyOf(varying), engine == Engine.MARIADB ? onUpdateColumns(c, table) : List.of(),
                columns);
    }

    /** MariaDB's columns of {@code table} set to the time at each UPDATE that changes their row (lower case). */
    static List<String> onUpdateColumns(Connection c, String table) throws SQLException {
        int dot = table.lastIndexOf('.');
        String sql = "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = "
                + (dot > 0 ? "?" : "DATABASE()") + " AND LOWER(TABLE_NAME) = ? AND LOWER(EXTRA) LIKE '%on update%'"
                + " ORDER BY ORDINAL_POSITION";
        List<String> columns = new ArrayList<>();
        try (java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            if (dot > 0) {
                ps.setString(i++, SqlAnalyzer.normalize(table.substring(0, dot)));
            }
            ps.setString(i, SqlAnalyzer.normalize(table.substring(dot + 1)));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(SqlAnalyzer.normalize(rs.getString(1)));
                }
            }
        }
        return List.copyOf(columns);
    }

    /** The columns of {@code table} whose default varies between backends (lower case) and that default. */
    static Map<String, String> varyingDefaults(Connection c, Engine engine, String table) throws SQLException {
        Map<String, String> varying = new LinkedHashMap<>();
        columns(c, engine, table, varying);
        return Map.copyOf(varying);
    }

    /**
     * How many columns {@code table} has; puts those whose default varies into {@code varying}. Of
     * tables whose names differ only in case, the statement's quoting would tell which one it
     * means: unless none of them has a varying default, it is refused.
     */
    private static int columns(Connection c, Engine engine, String table, Map<String, String> varying) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        List<StoredTable> found = StoredTable.find(c, engine, table);
        int columns = 0;
        for (StoredTable t : found) {
            int mine = 0;
            try (ResultSet rs = md.getColumns(t.catalog(), t.schema(), t.name(), null)) {
                while (rs.next()) {
                    mine++;
                    String def = rs.getString("COLUMN_DEF");
                    if (def != null && varies(def)) {
                        varying.put(SqlAnalyzer.normalize(rs.getString("COLUMN_NAME")), def);
                    }
                }
            }
            columns = columns == 0 ? mine : columns;
        }
        if (found.size() > 1 && !varying.isEmpty()) {
            throw new SQLFeatureNotSupportedException("tables " + found.stream().map(StoredTable::name).toList()
                    + " differ only in case and one of them has a default each backend would compute differently"
                    + " (" + varying.keySet() + "): which one this statement writes is not known here, and the"
                    + " replicas could differ. Give those columns values, or rename one of the tables",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        return columns;
    }

    private static boolean varies(String def) {
        return MacroRewriter.hasMacro(def) || UNPREDICTABLE.matcher(def).find() || OTHER_CLOCKS.matcher(def).find()
                || SQLITE_NOW.matcher(def).find();
    }
}
