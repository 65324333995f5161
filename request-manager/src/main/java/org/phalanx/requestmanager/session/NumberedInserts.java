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
 * the other). Refused unless the query orders its rows. The tables' key columns are read from a
 * backend's metadata once, and again after DDL.
 */
final class NumberedInserts {
    private static final Set<String> NEXTVAL = Set.of("nextval");
    /** By table, as written in the INSERT: its engine-numbered key column, if it has one. */
    private final Map<String, Optional<String>> keyColumns = new ConcurrentHashMap<>();

    void refuseUnordered(String sql, List<Backend> enabled, String user) throws SQLException {
        if (!InsertText.selectsWithoutOrder(sql) || enabled.isEmpty()) {
            return; // nearly every write
        }
        if (SqlLexer.mayCall(sql, NEXTVAL)) {
            throw new SQLFeatureNotSupportedException("nextval() in an INSERT ... SELECT without ORDER BY: each replica"
                    + " would number the rows in the order of its own scan; add an ORDER BY on a unique key to the query",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        String table = InsertText.table(sql);
        if (table == null) {
            return;
        }
        Optional<String> key = keyColumns.get(table);
        if (key == null) {
            try (Connection c = enabled.get(0).connectionFor(user)) {
                key = ControllerKeys.generatedKeyColumn(c, table);
            }
            keyColumns.put(table, key);
        }
        Set<String> listed = InsertText.listedColumns(sql);
        // without a column list the query gives every column, the key too: nothing to number
        if (key.isPresent() && listed != null && !listed.contains(SqlAnalyzer.normalize(key.get()))) {
            throw new SQLFeatureNotSupportedException("INSERT ... SELECT without ORDER BY into " + table + ", whose key "
                    + key.get() + " the engine numbers: each replica would number the rows in the order of its own scan;"
                    + " add an ORDER BY on a unique key to the query", SqlState.FEATURE_NOT_SUPPORTED.code());
        }
    }

    /** DDL ran: a table may have gained or lost its numbered key. */
    void schemaChanged() {
        keyColumns.clear();
    }
}
