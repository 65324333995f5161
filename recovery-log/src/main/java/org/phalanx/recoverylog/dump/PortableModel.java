package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.ddlutils.Platform;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.Database;
import org.apache.ddlutils.model.ForeignKey;
import org.apache.ddlutils.model.Index;
import org.apache.ddlutils.model.IndexColumn;
import org.apache.ddlutils.model.Reference;
import org.apache.ddlutils.model.Table;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.ControllerTables;
import org.phalanx.recoverylog.dump.ddl.DefaultValues;
import org.phalanx.recoverylog.dump.ddl.ForeignKeyRules;
import org.phalanx.recoverylog.dump.ddl.Platforms;
import org.phalanx.recoverylog.dump.ddl.PortableMySqlPlatform;
import org.phalanx.recoverylog.dump.ddl.PortablePostgreSqlPlatform;
import org.phalanx.recoverylog.dump.ddl.SqlitePlatform;

/** Reading a schema into a DdlUtils model fit for a portable dump, and fitting a dump's model to a target. */
final class PortableModel {
    private PortableModel() {
    }

    static Platform platform(Engine engine) throws DumpException {
        return switch (engine) {
            case SQLITE -> Platforms.create(SqlitePlatform.NAME);
            case POSTGRESQL -> Platforms.create(PortablePostgreSqlPlatform.NAME);
            case MARIADB -> Platforms.create(PortableMySqlPlatform.NAME);
            case PHALANX, OTHER -> throw new DumpException("the portable backuper supports SQLite, PostgreSQL and MariaDB");
        };
    }

    /** A source schema: the model, and the ON DELETE/ON UPDATE actions of its foreign keys ({delete, update}). */
    record Source(Database db, Map<ForeignKey, String[]> rules) {
    }

    /**
     * Reads the base tables of the connection's database (PostgreSQL: its current schema),
     * then corrects what the engines' JDBC metadata and DdlUtils 1.0 get wrong: identity columns
     * from {@code IS_AUTOINCREMENT} (DdlUtils misses PostgreSQL identity columns), defaults in
     * portable form, BOOLEAN as BIT(1) (BOOLEAN is not in DdlUtils' DTD), national and zoned types
     * as their plain forms, unsigned MariaDB integers widened, SQLite integers widened to the values
     * they hold ({@link SqliteIntegerRanges}), sizes that mean nothing cleared.
     * Types with no portable form (arrays, structs) fail with one message naming them all.
     */
    static Source read(Connection c, Engine engine) throws SQLException, DumpException {
        Platform platform = platform(engine);
        Database db = platform.readModelFromDatabase(c, "dump", SqlIdentifiers.catalog(engine, c),
                SqlIdentifiers.schema(engine, c), new String[] {"TABLE"});
        for (Table table : db.getTables()) {
            if (ControllerTables.isLeftOutOfDumps(table.getName())) {
                db.removeTable(table); // the controller's own bookkeeping, not data: never dumped
            }
        }
        List<String> unsupported = new ArrayList<>();
        for (Table table : db.getTables()) {
            Map<String, String[]> meta = engine == Engine.SQLITE ? Map.of() : columnMetadata(c, engine, table.getName());
            for (Column column : table.getColumns()) {
                String[] m = meta.get(column.getName()); // TYPE_NAME, COLUMN_DEF, IS_AUTOINCREMENT
                String typeName = m == null ? "" : m[0].toLowerCase(Locale.ROOT);
                if (!fixType(column, typeName)) {
                    unsupported.add(table.getName() + "." + column.getName() + " (" + typeName + ")");
                    continue;
                }
                if (m != null) {
                    column.setAutoIncrement(column.isAutoIncrement() || "YES".equalsIgnoreCase(m[2]));
                    column.setDefaultValue(column.isAutoIncrement() ? null
                            : DefaultValues.normalize(m[1], column.getTypeCode()));
                }
            }
        }
        if (!unsupported.isEmpty()) {
            throw new DumpException("the portable format cannot carry these columns: " + String.join(", ", unsupported));
        }
        if (engine == Engine.SQLITE) {
            SqliteIntegerRanges.widen(c, db);
        }
        db.initialize();
        Map<ForeignKey, String[]> rules = new IdentityHashMap<>();
        for (Table table : db.getTables()) {
            readRules(c, engine, table, rules);
        }
        return new Source(db, rules);
    }

    /** Matches {@code getImportedKeys} rows to the model's keys by local column and referenced table. */
    private static void readRules(Connection c, Engine engine, Table table, Map<ForeignKey, String[]> rules)
            throws SQLException {
        if (table.getForeignKeyCount() == 0) {
            return;
        }
        try (ResultSet rs = c.getMetaData().getImportedKeys(SqlIdentifiers.catalog(engine, c),
                SqlIdentifiers.schema(engine, c), table.getName())) {
            while (rs.next()) {
                String local = rs.getString("FKCOLUMN_NAME");
                String parent = rs.getString("PKTABLE_NAME");
                for (ForeignKey fk : table.getForeignKeys()) {
                    if (!fk.getForeignTableName().equalsIgnoreCase(parent)) {
                        continue;
                    }
                    for (Reference r : fk.getReferences()) {
                        if (r.getLocalColumnName().equalsIgnoreCase(local)) {
                            rules.put(fk, new String[] {ForeignKeyRules.sql(rs.getInt("DELETE_RULE")),
                                    ForeignKeyRules.sql(rs.getInt("UPDATE_RULE"))});
                        }
                    }
                }
            }
        }
    }

    private static Map<String, String[]> columnMetadata(Connection c, Engine engine, String table) throws SQLException {
        Map<String, String[]> meta = new HashMap<>();
        try (ResultSet rs = c.getMetaData().getColumns(SqlIdentifiers.catalog(engine, c), SqlIdentifiers.schema(engine, c),
                table, "%")) {
            while (rs.next()) {
                meta.put(rs.getString("COLUMN_NAME"), new String[] {rs.getString("TYPE_NAME"), rs.getString("COLUMN_DEF"),
                        rs.getString("IS_AUTOINCREMENT")});
            }
        }
        return meta;
    }

    /** Puts a column's type in portable form; false if there is none. */
    private static boolean fixType(Column column, String typeName) {
        int type = column.getTypeCode();
        boolean unsigned = typeName.contains("unsigned");
        switch (type) {
            case Types.BOOLEAN -> setType(column, Types.BIT, "1");
            case Types.BIT -> {
                if (column.getSizeAsInt() > 1) {
                    return false; // a bit string, not a boolean
                }
                setType(column, Types.BIT, "1");
            }
            case Types.TINYINT -> setType(column, unsigned ? Types.SMALLINT : Types.TINYINT, null);
            case Types.SMALLINT -> setType(column, unsigned ? Types.INTEGER : Types.SMALLINT, null);
            case Types.INTEGER -> setType(column, unsigned || typeName.startsWith("mediumint unsigned")
                    ? Types.BIGINT : Types.INTEGER, null);
            case Types.BIGINT -> {
                if (unsigned) {
                    column.setTypeCode(Types.DECIMAL);
                    column.setSizeAndScale(20, 0);
                } else {
                    setType(column, Types.BIGINT, null);
                }
            }
            case Types.DECIMAL, Types.NUMERIC -> {
                int precision = column.getSizeAsInt();
                if (precision <= 0 || precision > 1000) {
                    setType(column, type, null); // unconstrained NUMERIC
                }
            }
            case Types.REAL, Types.FLOAT, Types.DOUBLE, Types.DATE, Types.TIME, Types.TIMESTAMP, Types.LONGVARCHAR,
                 Types.CLOB, Types.LONGVARBINARY, Types.BLOB -> setType(column, type, null);
            case Types.TIMESTAMP_WITH_TIMEZONE -> setType(column, Types.TIMESTAMP, null);
            case Types.TIME_WITH_TIMEZONE -> setType(column, Types.TIME, null);
            case Types.NCHAR, Types.CHAR -> text(column, Types.CHAR);
            case Types.NVARCHAR, Types.VARCHAR -> text(column, Types.VARCHAR);
            case Types.LONGNVARCHAR -> setType(column, Types.LONGVARCHAR, null);
            case Types.NCLOB -> setType(column, Types.CLOB, null);
            case Types.BINARY, Types.VARBINARY -> {
                if (column.getSizeAsInt() <= 0 || column.getSizeAsInt() > 65535) {
                    setType(column, Types.LONGVARBINARY, null);
                }
            }
            case Types.OTHER, Types.SQLXML -> {
                // uuid, json, xml, enums, inet...: their text form is portable
                setType(column, typeName.equals("uuid") ? Types.VARCHAR : Types.LONGVARCHAR,
                        typeName.equals("uuid") ? "36" : null);
            }
            default -> {
                return false; // arrays, structs, references, Java objects
            }
        }
        return true;
    }

    private static void text(Column column, int type) {
        int size = column.getSizeAsInt();
        if (size <= 0 || size > 65535) {
            setType(column, Types.LONGVARCHAR, null); // PostgreSQL varchar without a length
        } else {
            setType(column, type, Integer.toString(size));
        }
    }

    private static void setType(Column column, int type, String size) {
        column.setTypeCode(type);
        column.setSize(size);
        if (size == null) {
            column.setScale(0);
        }
    }

    /** Text columns without a bound that a key, index or foreign key uses (MariaDB must bound them). */
    static Set<Column> keyedUnboundedText(Table table) {
        Set<Column> keyed = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Column c : table.getPrimaryKeyColumns()) {
            keyed.add(c);
        }
        for (Index index : table.getIndices()) {
            for (IndexColumn ic : index.getColumns()) {
                keyed.add(ic.getColumn());
            }
        }
        for (ForeignKey fk : table.getForeignKeys()) {
            for (Reference r : fk.getReferences()) {
                keyed.add(r.getLocalColumn());
            }
        }
        keyed.removeIf(c -> c == null || (c.getTypeCode() != Types.LONGVARCHAR && c.getTypeCode() != Types.CLOB));
        return keyed;
    }

    /** Tables with the ones they reference first (cycles broken arbitrarily). */
    static List<Table> parentsFirst(Database db) {
        List<Table> ordered = new ArrayList<>();
        Set<Table> visited = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Table t : db.getTables()) {
            visit(t, visited, Collections.newSetFromMap(new IdentityHashMap<>()), ordered);
        }
        return ordered;
    }

    private static void visit(Table t, Set<Table> visited, Set<Table> path, List<Table> ordered) {
        if (visited.contains(t) || !path.add(t)) {
            return;
        }
        for (ForeignKey fk : t.getForeignKeys()) {
            Table parent = fk.getForeignTable();
            if (parent != null && parent != t) {
                visit(parent, visited, path, ordered);
            }
        }
        if (visited.add(t)) {
            ordered.add(t);
        }
    }

    /**
     * Renames tables and columns, keeping foreign keys and indexes pointing at them.
     *
     * @param tableNames  old table name -> new name
     * @param columnNames old table name -> (old column name -> new name)
     */
    static void rename(Database db, Map<String, String> tableNames, Map<String, Map<String, String>> columnNames) {
        Map<Table, String> oldNames = new IdentityHashMap<>();
        for (Table t : db.getTables()) {
            oldNames.put(t, t.getName());
        }
        for (Table t : db.getTables()) {
            Map<String, String> columns = columnNames.getOrDefault(oldNames.get(t), Map.of());
            for (Column c : t.getColumns()) {
                c.setName(columns.getOrDefault(c.getName(), c.getName()));
            }
            t.setName(tableNames.getOrDefault(t.getName(), t.getName()));
        }
        for (Table t : db.getTables()) {
            for (ForeignKey fk : t.getForeignKeys()) {
                Table parent = fk.getForeignTable();
                fk.setForeignTableName(parent.getName());
                for (Reference r : fk.getReferences()) {
                    r.setLocalColumnName(r.getLocalColumn().getName());
                    r.setForeignColumnName(r.getForeignColumn().getName());
                }
            }
            for (Index index : t.getIndices()) {
                for (IndexColumn ic : index.getColumns()) {
                    ic.setName(ic.getColumn().getName());
                }
            }
        }
    }

    /**
     * Gives indexes and foreign keys names unique in the whole database and distinct from table
     * names: PostgreSQL keeps indexes in the tables' namespace, InnoDB constraint names are per
     * database, while the source may have reused a name on two tables.
     *
     * @param taken names (lower case) already used in the target that the new ones must avoid
     */
    static void uniqueConstraintNames(Database db, Set<String> taken) {
        Set<String> used = new HashSet<>(taken);
        for (Table t : db.getTables()) {
            used.add(t.getName().toLowerCase(Locale.ROOT));
        }
        for (Table t : db.getTables()) {
            for (Index index : t.getIndices()) {
                index.setName(unique(index.getName() == null ? t.getName() + "_index" : index.getName(), used));
            }
            for (ForeignKey fk : t.getForeignKeys()) {
                fk.setName(unique(fk.getName() == null || fk.getName().isEmpty() ? t.getName() + "_fk" : fk.getName(), used));
            }
        }
    }

    /**
     * Widens the narrower integer column of each foreign key to the other's type: MariaDB refuses
     * a key between INTEGER and BIGINT, which PostgreSQL and SQLite accept (and which a SQLite
     * column widened to the values it holds can produce).
     */
    static void sameIntegerTypeAcrossForeignKeys(Database db) {
        for (boolean changed = true; changed; ) { // a widened key column may be referenced in turn
            changed = false;
            for (Table t : db.getTables()) {
                for (ForeignKey fk : t.getForeignKeys()) {
                    for (Reference r : fk.getReferences()) {
                        changed |= widenToEach(r.getLocalColumn(), r.getForeignColumn());
                    }
                }
            }
        }
    }

    private static final List<Integer> INTEGERS = List.of(Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT);

    private static boolean widenToEach(Column a, Column b) {
        if (a == null || b == null) {
            return false;
        }
        int ra = INTEGERS.indexOf(a.getTypeCode());
        int rb = INTEGERS.indexOf(b.getTypeCode());
        if (ra < 0 || rb < 0 || ra == rb) {
            return false;
        }
        (ra < rb ? a : b).setTypeCode(INTEGERS.get(Math.max(ra, rb)));
        return true;
    }

    private static String unique(String name, Set<String> taken) {
        String candidate = name;
        for (int n = 2; !taken.add(candidate.toLowerCase(Locale.ROOT)); n++) {
            candidate = name + "_" + n;
        }
        return candidate;
    }
}
