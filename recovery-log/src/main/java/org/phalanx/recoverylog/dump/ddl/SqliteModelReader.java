package org.phalanx.recoverylog.dump.ddl;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.ddlutils.Platform;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.Database;
import org.apache.ddlutils.model.ForeignKey;
import org.apache.ddlutils.model.Index;
import org.apache.ddlutils.model.IndexColumn;
import org.apache.ddlutils.model.NonUniqueIndex;
import org.apache.ddlutils.model.Reference;
import org.apache.ddlutils.model.Table;
import org.apache.ddlutils.model.UniqueIndex;
import org.apache.ddlutils.platform.JdbcModelReader;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Reads a SQLite schema from SQLite's own catalog ({@code sqlite_schema} and the
 * {@code table_info}, {@code foreign_key_list}, {@code index_list}/{@code index_info} pragmas)
 * instead of JDBC metadata, which loses what a portable dump needs:
 * <ul>
 * <li>types come from the declared type ({@link SqliteTypes}), with DECIMAL's real precision, and
 *     for a rowid key from its {@link RowidTypeNote} when it has one;</li>
 * <li>AUTOINCREMENT is read from the table's SQL;</li>
 * <li>foreign keys are grouped by their id, so two unnamed keys of one table stay two keys;</li>
 * <li>{@code sqlite_*} tables are skipped; the {@code sqlite_autoindex_*} index of a UNIQUE
 *     constraint becomes a unique index with a usable name, the one of the primary key is
 *     dropped (the key itself covers it); partial and expression indexes are skipped with a
 *     warning (their condition or expression would be lost).</li>
 * </ul>
 */
public class SqliteModelReader extends JdbcModelReader {
    private static final Logger LOG = LogManager.getLogger(SqliteModelReader.class);
    private static final Pattern AUTOINCREMENT = Pattern.compile("\\bAUTOINCREMENT\\b", Pattern.CASE_INSENSITIVE);

    public SqliteModelReader(Platform platform) {
        super(platform);
        setDefaultTableTypes(new String[] {"TABLE"});
    }

    @Override
    public Database getDatabase(Connection connection, String name, String catalog, String schema,
                                String[] tableTypes) throws SQLException {
        Database db = new Database();
        db.setName(name == null ? "database" : name);
        Map<String, String> tables = new LinkedHashMap<>();
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT name, sql FROM sqlite_schema WHERE type = 'table'"
                     + " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")) {
            while (rs.next()) {
                tables.put(rs.getString(1), rs.getString(2));
            }
        }
        Map<String, List<ForeignKey>> foreignKeys = new LinkedHashMap<>();
        for (Map.Entry<String, String> t : tables.entrySet()) {
            Table table = readTable(connection, t.getKey(), t.getValue());
            db.addTable(table);
            foreignKeys.put(t.getKey(), readForeignKeys(connection, table));
        }
        for (Table table : db.getTables()) {
            for (ForeignKey fk : foreignKeys.get(table.getName())) {
                Table parent = db.findTable(fk.getForeignTableName(), true);
                if (resolve(table, parent, fk)) {
                    table.addForeignKey(fk);
                }
            }
        }
        db.initialize();
        return db;
    }

    private Table readTable(Connection c, String name, String sql) throws SQLException {
        Table table = new Table();
        table.setName(name);
        List<Column> pk = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA table_info(" + quote(name) + ")")) {
            Map<Integer, Column> byPkOrder = new TreeMap<>();
            while (rs.next()) {
                Column column = new Column();
                column.setName(rs.getString("name"));
                SqliteTypes.Mapped type = SqliteTypes.map(rs.getString("type"));
                column.setTypeCode(type.typeCode());
                if (type.size() != null) {
                    if (type.scale() != null) {
                        column.setSizeAndScale(type.size(), type.scale());
                    } else {
                        column.setSize(type.size().toString());
                    }
                }
                int pkOrder = rs.getInt("pk");
                column.setRequired(rs.getInt("notnull") != 0 || pkOrder > 0);
                column.setDefaultValue(DefaultValues.normalize(rs.getString("dflt_value"), type.typeCode()));
                if (pkOrder > 0) {
                    column.setPrimaryKey(true);
                    byPkOrder.put(pkOrder, column);
                }
                table.addColumn(column);
            }
            pk.addAll(byPkOrder.values());
        }
        if (pk.size() == 1 && pk.get(0).getTypeCode() == Types.INTEGER) {
            Integer noted = RowidTypeNote.find(sql, pk.get(0).getName());
            if (noted != null) {
                pk.get(0).setTypeCode(noted); // a BIGINT key that had to be declared INTEGER to be the rowid
            }
        }
        if (pk.size() == 1 && isInteger(pk.get(0).getTypeCode()) && sql != null && AUTOINCREMENT.matcher(sql).find()) {
            pk.get(0).setAutoIncrement(true);
        }
        readIndices(c, table);
        return table;
    }

    private void readIndices(Connection c, Table table) throws SQLException {
        List<String[]> indexes = new ArrayList<>(); // name, unique, origin, partial
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA index_list(" + quote(table.getName()) + ")")) {
            while (rs.next()) {
                indexes.add(new String[] {rs.getString("name"), rs.getString("unique"), rs.getString("origin"),
                        rs.getString("partial")});
            }
        }
        int unnamed = 0;
        for (String[] ix : indexes) {
            String name = ix[0];
            if ("pk".equals(ix[2])) {
                continue; // the primary key itself
            }
            if ("1".equals(ix[3])) {
                LOG.warn("SQLite index {} on {} is partial: skipped (its condition cannot be carried portably)",
                        name, table.getName());
                continue;
            }
            List<String> columns = new ArrayList<>();
            boolean expression = false;
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("PRAGMA index_info(" + quote(name) + ")")) {
                while (rs.next()) {
                    String column = rs.getString("name");
                    if (column == null) {
                        expression = true;
                    }
                    columns.add(column);
                }
            }
            if (expression) {
                LOG.warn("SQLite index {} on {} indexes an expression: skipped", name, table.getName());
                continue;
            }
            Index index = "1".equals(ix[1]) ? new UniqueIndex() : new NonUniqueIndex();
            // sqlite_autoindex_* is reserved: a UNIQUE constraint's index gets a name of its own
            index.setName(name.toLowerCase(Locale.ROOT).startsWith("sqlite_autoindex_")
                    ? table.getName() + "_unique_" + (++unnamed) : name);
            for (String column : columns) {
                index.addColumn(new IndexColumn(table.findColumn(column, true)));
            }
            table.addIndex(index);
        }
    }

    private List<ForeignKey> readForeignKeys(Connection c, Table table)
            throws SQLException {
        Map<Integer, ForeignKey> byId = new TreeMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA foreign_key_list(" + quote(table.getName()) + ")")) {
            while (rs.next()) {
                int id = rs.getInt("id");
                ForeignKey fk = byId.computeIfAbsent(id, k -> new ForeignKey());
                fk.setForeignTableName(rs.getString("table"));
                Reference reference = new Reference();
                reference.setSequenceValue(rs.getInt("seq"));
                reference.setLocalColumnName(rs.getString("from"));
                reference.setForeignColumnName(rs.getString("to")); // null: the parent's primary key
                fk.addReference(reference);
            }
        }
        List<ForeignKey> keys = new ArrayList<>();
        int n = 0;
        for (ForeignKey fk : byId.values()) {
            fk.setName(table.getName() + "_fk_" + (++n)); // SQLite does not report constraint names
            keys.add(fk);
        }
        return keys;
    }

    /** Links a key's columns; false (with a warning) if it points at something that does not exist. */
    private static boolean resolve(Table table, Table parent, ForeignKey fk) {
        if (parent == null) {
            LOG.warn("Foreign key {} of {} references missing table {}: skipped", fk.getName(), table.getName(),
                    fk.getForeignTableName());
            return false;
        }
        fk.setForeignTable(parent);
        fk.setForeignTableName(parent.getName());
        Column[] parentKey = parent.getPrimaryKeyColumns();
        Reference[] references = fk.getReferences();
        for (int i = 0; i < references.length; i++) {
            Reference r = references[i];
            Column local = table.findColumn(r.getLocalColumnName(), true);
            Column foreign = r.getForeignColumnName() != null ? parent.findColumn(r.getForeignColumnName(), true)
                    : (i < parentKey.length ? parentKey[i] : null);
            if (local == null || foreign == null) {
                LOG.warn("Foreign key {} of {} references missing columns: skipped", fk.getName(), table.getName());
                return false;
            }
            r.setLocalColumn(local);
            r.setForeignColumn(foreign);
        }
        return true;
    }

    static boolean isInteger(int typeCode) {
        return typeCode == Types.INTEGER || typeCode == Types.BIGINT || typeCode == Types.SMALLINT
                || typeCode == Types.TINYINT;
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
