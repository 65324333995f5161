package org.phalanx.requestmanager.verify;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.phalanx.engine.Engine;

/**
 * A table as one replica holds it: its name there, its columns in order and its primary key
 * (empty without one), read from the replica's own JDBC metadata.
 */
public record TableShape(String name, List<TableColumn> columns, List<String> key) {
    /** Precisions above this are the engines' way of saying none was declared (PostgreSQL's bare numeric). */
    private static final int MAX_DECLARED_PRECISION = 1000;

    public TableShape {
        columns = List.copyOf(columns);
        key = List.copyOf(key);
    }

    /** Whether the table has a primary key, so rows can be ordered, chunked and matched by key. */
    public boolean keyed() {
        return !key.isEmpty();
    }

    /** The column of that name (any case). */
    public Optional<TableColumn> column(String columnName) {
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(columnName)).findFirst();
    }

    /** Column names in lower case, in order: what two replicas must agree on. */
    public List<String> columnNames() {
        return columns.stream().map(c -> c.name().toLowerCase(Locale.ROOT)).toList();
    }

    /** The same table with its columns in the order of {@code names} (lower case), which it must all have. */
    public TableShape inOrderOf(List<String> names) {
        List<TableColumn> ordered = new ArrayList<>(names.size());
        for (String n : names) {
            ordered.add(column(n).orElseThrow());
        }
        List<String> orderedKey = key.stream().map(k -> column(k).orElseThrow().name()).toList();
        return new TableShape(name, ordered, orderedKey);
    }

    /**
     * Reads the table named {@code table} (any case, unqualified) from the connection's current
     * database and schema; empty if there is no such base table (a view is not one).
     */
    public static Optional<TableShape> read(Connection c, Engine engine, String table) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        String catalog = c.getCatalog();
        String schema = engine == Engine.POSTGRESQL ? c.getSchema() : null;
        String realName = null;
        try (ResultSet rs = md.getTables(catalog, schema, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                String n = rs.getString("TABLE_NAME");
                if (n.equalsIgnoreCase(table)) {
                    realName = n;
                    break;
                }
            }
        }
        if (realName == null) {
            return Optional.empty();
        }
        List<TableColumn> columns = new ArrayList<>();
        try (ResultSet rs = md.getColumns(catalog, schema, realName, "%")) {
            while (rs.next()) {
                ColumnKind kind = ColumnKind.of(rs.getInt("DATA_TYPE"), rs.getString("TYPE_NAME"));
                int precision = rs.getInt("COLUMN_SIZE");
                int digits = rs.getInt("DECIMAL_DIGITS");
                boolean declared = !rs.wasNull() && precision > 0 && precision <= MAX_DECLARED_PRECISION;
                columns.add(new TableColumn(rs.getString("COLUMN_NAME"), kind,
                        kind == ColumnKind.DECIMAL && declared ? digits : -1));
            }
        }
        Map<Integer, String> key = new TreeMap<>();
        try (ResultSet rs = md.getPrimaryKeys(catalog, schema, realName)) {
            while (rs.next()) {
                key.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
            }
        }
        return Optional.of(new TableShape(realName, columns, new ArrayList<>(key.values())));
    }
}
