package org.phalanx.requestmanager.session;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.phalanx.recoverylog.ControllerTables;

/**
 * A backend's metadata answer without the rows about the controller's own tables and schema
 * ({@link ControllerTables}): clients of the virtual database never see them.
 */
final class ControllerTablesHidden {
    /** Columns of DatabaseMetaData results that name a table. */
    private static final Set<String> TABLE_COLUMNS = Set.of("TABLE_NAME", "PKTABLE_NAME", "FKTABLE_NAME");
    /** Columns that name a schema or catalog (PostgreSQL schemas, MariaDB databases). */
    private static final Set<String> SCHEMA_COLUMNS = Set.of("TABLE_SCHEM", "TABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_CAT",
            "FKTABLE_SCHEM", "FKTABLE_CAT");

    private ControllerTablesHidden() {
    }

    static ResultSet filter(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<Integer> tableColumns = new ArrayList<>();
        List<Integer> schemaColumns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            String label = meta.getColumnLabel(i).toUpperCase(java.util.Locale.ROOT);
            if (TABLE_COLUMNS.contains(label)) {
                tableColumns.add(i);
            } else if (SCHEMA_COLUMNS.contains(label)) {
                schemaColumns.add(i);
            }
        }
        if (tableColumns.isEmpty() && schemaColumns.isEmpty()) {
            return rs;
        }
        return (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("next") && method.getParameterCount() == 0) {
                        while (rs.next()) {
                            if (!aboutControllerTable(rs, tableColumns, schemaColumns)) {
                                return true;
                            }
                        }
                        return false;
                    }
                    try {
                        return method.invoke(rs, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static boolean aboutControllerTable(ResultSet rs, List<Integer> tableColumns, List<Integer> schemaColumns)
            throws SQLException {
        for (int column : tableColumns) {
            if (ControllerTables.isControllerTable(rs.getString(column))) {
                return true;
            }
        }
        for (int column : schemaColumns) {
            if (ControllerTables.isControllerSchema(rs.getString(column))) {
                return true;
            }
        }
        return false;
    }
}
