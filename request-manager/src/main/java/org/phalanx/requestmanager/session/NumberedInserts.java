package org.phalanx.requestmanager.session;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.InsertText;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.analysis.SqlLexer;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.hetero.ControllerKeys;

/**
 * {@code INSERT INTO t (...) SELECT ...} without {@code ORDER BY}, into a table whose key the engine
 * numbers (a serial or identity column, AUTO_INCREMENT) and which the insert leaves out: each replica
 * numbers the rows in the order its own scan returns them, and PostgreSQL's scan order differs from
 * replica to replica (measured: the row numbered 1000 copied source row 1478 on one replica, 526 on
 * the other). The query is given {@code ORDER BY 1, 2, ..., n} over all its columns (before the
 * INSERT's RETURNING clause, if it has one), so every replica numbers the rows in one order (rows
 * alike in every column are alike whatever number each gets); where it cannot be added (ON CONFLICT,
 * FOR UPDATE, LIMIT...) the statement is refused, as is
 * {@code nextval()} in such a query. The tables' key columns are read from a backend's metadata
 * once, and again after DDL. The INSERT may follow common tables ({@code WITH src AS (...) INSERT ...}).
 */
final class NumberedInserts {
    private static final Set<String> NEXTVAL = Set.of("nextval");
    /** Words after which, or in place of which, an ORDER BY cannot simply be appended. */
    private static final List<String> NOT_APPENDABLE = List.of("conflict", "duplicate", "for", "limit",
            "offset", "fetch");
    /** By table, as written in the INSERT: its engine-numbered key column, if it has one. */
    private final Map<String, Optional<String>> keyColumns = new ConcurrentHashMap<>();

    /** The statement as every replica numbers its rows alike: {@code sql} itself, or ordered; refused if it cannot be. */
    String ordered(String sql, List<Backend> enabled, String user) throws SQLException {
        String insert = InsertText.afterCommonTables(sql); // WITH src AS (...) INSERT INTO t (a) SELECT a FROM src
        if (!InsertText.selectsWithoutOrder(insert) || enabled.isEmpty()) {
            return sql; // nearly every write
        }
        if (SqlLexer.mayCall(sql, NEXTVAL)) {
            throw refused("nextval() in an INSERT ... SELECT without ORDER BY: each replica would number the rows in the"
                    + " order of its own scan; add an ORDER BY on a unique key to the query");
        }
        String table = InsertText.table(insert);
        Set<String> listed = InsertText.listedColumns(insert);
        if (table == null || listed == null) {
            return sql; // without a column list the query gives every column, the key too: nothing to number
        }
        Optional<String> key = keyColumns.get(table);
        if (key == null) {
            try (Connection c = enabled.get(0).connectionFor(user)) {
                key = ControllerKeys.generatedKeyColumn(c, table);
            }
            keyColumns.put(table, key);
        }
        if (key.isEmpty() || listed.contains(SqlAnalyzer.normalize(key.get()))) {
            return sql;
        }
        int returning = InsertText.returningAt(insert);
        String query = returning < 0 ? insert : insert.substring(0, returning);
        if (NOT_APPENDABLE.stream().anyMatch(word -> SqlLexer.containsWord(query, word))
                || returning < 0 && SqlLexer.containsWord(insert, "returning")) { // a RETURNING inside parentheses
            throw refused("INSERT ... SELECT without ORDER BY into " + table + ", whose key " + key.get() + " the"
                    + " engine numbers: each replica would number the rows in the order of its own scan; add an ORDER BY"
                    + " on a unique key to the query");
        }
        StringBuilder order = new StringBuilder(" ORDER BY 1");
        for (int i = 2; i <= listed.size(); i++) {
            order.append(", ").append(i);
        }
        if (returning >= 0) { // INSERT ... SELECT ... ORDER BY 1, 2 RETURNING id
            int at = sql.length() - insert.length() + returning;
            return sql.substring(0, at).stripTrailing() + order + " " + sql.substring(at);
        }
        StringBuilder ordered = new StringBuilder(sql.strip());
        while (ordered.charAt(ordered.length() - 1) == ';') {
            ordered.setLength(ordered.length() - 1);
        }
        return ordered.append(order).toString();
    }

    private static SQLFeatureNotSupportedException refused(String message) {
        return new SQLFeatureNotSupportedException(message, SqlState.FEATURE_NOT_SUPPORTED.code());
    }

    /** DDL ran: a table may have gained or lost its numbered key. */
    void schemaChanged() {
        keyColumns.clear();
    }
}
