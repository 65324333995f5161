package org.phalanx.requestmanager.session;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.phalanx.recoverylog.ControllerTables;
import org.phalanx.requestmanager.api.Result;

/**
 * A backend's metadata answer without the rows about the controller's own tables and schema
 * ({@link ControllerTables}): clients of the virtual database never see them.
 */
final class ControllerTablesHidden {
    /** Columns of DatabaseMetaData results that name a table. */
    private static final Set<String> TABLE_COLUMNS = Set.of("TABLE_NAME", "PKTABLE_NAME", "FKTABLE_NAME");
    /** Columns that name a schema or catalog (PostgreSQL schemas, MariaDB databases). */
    private static final Set<String> SCHEMA_COLUMNS = Set.of("TABLE_SCHEM", "TABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_CAT",
            "FKTABLE_SCHEM", "FKTABLE_CAT", "TABLE_CATALOG");

    private ControllerTablesHidden() {
    }

    /** The rows of {@code answer} (a backend's, before its catalogs are renamed) that are the user's. */
    static Result.Cached without(Result.Cached answer) throws SQLException {
        List<Integer> tableColumns = columns(answer.metaData(), TABLE_COLUMNS);
        List<Integer> schemaColumns = columns(answer.metaData(), SCHEMA_COLUMNS);
        if (tableColumns.isEmpty() && schemaColumns.isEmpty()) {
            return answer;
        }
        List<Object[]> rows = new ArrayList<>(answer.rows().size());
        for (Object[] row : answer.rows()) {
            if (!aboutControllerTable(row, tableColumns, schemaColumns)) {
                rows.add(row);
            }
        }
        return new Result.Cached(answer.metaData(), rows);
    }

    /** The 0-based indexes of the columns whose labels are in {@code labels}. */
    static List<Integer> columns(ResultSetMetaData meta, Set<String> labels) throws SQLException {
        List<Integer> found = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            if (labels.contains(meta.getColumnLabel(i).toUpperCase(Locale.ROOT))) {
                found.add(i - 1);
            }
        }
        return found;
    }

    private static boolean aboutControllerTable(Object[] row, List<Integer> tableColumns, List<Integer> schemaColumns) {
        for (int column : tableColumns) {
            if (row[column] != null && ControllerTables.isControllerTable(row[column].toString())) {
                return true;
            }
        }
        for (int column : schemaColumns) {
            if (row[column] != null && ControllerTables.isControllerSchema(row[column].toString())) {
                return true;
            }
        }
        return false;
    }
}
