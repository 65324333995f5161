package org.phalanx.requestmanager.write;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;

/**
 * What a table's schema says about which of its writes commute, read from one backend's metadata
 * ({@link RowLocking}): its primary key, the unique indexes, foreign keys both ways, triggers and
 * the defaults computed at insert.
 *
 * @param key          the primary key's columns in key order (lower case); empty when there is none
 * @param rowsCommute  whether writes of different rows commute at all: every key column is an
 *                     integer, every unique index contains the whole key (so it cannot fail for a
 *                     row the key does not), every foreign key references its parent's whole
 *                     primary key, and no trigger or rule may touch other rows; for a table without
 *                     a key: no unique index either (its inserts then never conflict)
 * @param insertsCommute no column gets a value from a counter (sequence default, AUTO_INCREMENT,
 *                     identity) or is generated
 * @param computedDefaults columns whose default is computed (a function, {@code CURRENT_TIMESTAMP}):
 *                     an INSERT that leaves one of them out is not bounded to what it says
 * @param parents      the foreign keys this table holds, each as its parent and this table's
 *                     columns in the order of the parent's key
 * @param children     tables holding a foreign key to this one (lower case)
 * @param reachesOtherTables its writes change what other tables' writes depend on, beyond what a
 *                     statement names: a trigger or rule (which may write anywhere), a default
 *                     drawing from a sequence other tables may draw from too
 */
record TableTraits(List<String> key, boolean rowsCommute, boolean insertsCommute, Set<String> computedDefaults,
                   List<ForeignKey> parents, Set<String> children, boolean reachesOtherTables) {

    /** A foreign key: the parent table and this table's columns matching the parent's key, in its order. */
    record ForeignKey(String parent, List<String> columns) {
    }

    /** Nothing known: writes of the table keep table-level conflicts, and it has no relatives. */
    static final TableTraits UNKNOWN = new TableTraits(List.of(), false, false, Set.of(), List.of(), Set.of(), false);

    private static final Set<Integer> INTEGER_TYPES = Set.of(Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT);
    /** A constant default (with PostgreSQL's cast): the same on every replica, whatever the order. */
    private static final Pattern LITERAL_DEFAULT = Pattern.compile("(?s)\\s*\\(?(-?[0-9.]+|'[^']*'|NULL|null)\\)?(::[a-z ]+)?\\s*");
    private static final Pattern COUNTER_DEFAULT = Pattern.compile("(?i).*\\bnextval\\s*\\(.*");

    /**
     * The traits of {@code table} (lower case, maybe qualified) as stored: {@link #UNKNOWN} unless it
     * names exactly one table wherever a session's search path may point — not one whose name
     * differs only in case (which one a statement writes depends on its quoting, which the analysis
     * no longer has), not a table of the same name in another schema, not a table this connection
     * does not see (a temporary one, one created by a transaction not yet committed).
     */
    static TableTraits read(Connection c, Engine engine, String table) throws SQLException {
        StoredTable t = StoredTable.findAnywhere(c, engine, table);
        if (t == null) {
            return UNKNOWN;
        }
        DatabaseMetaData md = c.getMetaData();
        String catalog = t.catalog();
        String schema = t.schema();
        String name = t.name();
        List<String> key = primaryKey(md, catalog, schema, name);
        boolean triggered = hasTriggers(c, engine, t);
        boolean rowsCommute = uniqueIndexesContain(md, catalog, schema, name, key) && !triggered;
        boolean sharedCounter = false;
        boolean insertsCommute = true;
        Set<String> computed = new HashSet<>();
        Set<String> integers = new HashSet<>();
        try (ResultSet rs = md.getColumns(catalog, schema, name, null)) {
            while (rs.next()) {
                String column = rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT);
                if (INTEGER_TYPES.contains(rs.getInt("DATA_TYPE"))) {
                    integers.add(column);
                }
                String def = rs.getString("COLUMN_DEF");
                if ("YES".equalsIgnoreCase(rs.getString("IS_AUTOINCREMENT"))
                        || "YES".equalsIgnoreCase(rs.getString("IS_GENERATEDCOLUMN"))
                        || def != null && COUNTER_DEFAULT.matcher(def).matches()) {
                    insertsCommute = false;
                    sharedCounter |= def != null && COUNTER_DEFAULT.matcher(def).matches() && !ownSerial(def, name, column);
                } else if (def != null && !LITERAL_DEFAULT.matcher(def).matches()) {
                    computed.add(column);
                }
            }
        }
        rowsCommute &= integers.containsAll(key);
        List<ForeignKey> parents = new ArrayList<>();
        for (Map.Entry<Imported, Map<String, String>> fk : importedKeys(md, catalog, schema, name).entrySet()) {
            StoredTable stored = fk.getKey().parent();
            String parent = stored.name().toLowerCase(Locale.ROOT);
            List<String> parentKey = primaryKey(md, stored.catalog(), stored.schema(), stored.name());
            if (parentKey.isEmpty() || !fk.getValue().keySet().equals(new HashSet<>(parentKey))) {
                rowsCommute = false; // a reference to something else than the parent's key: rows we cannot name
                continue;
            }
            List<String> columns = new ArrayList<>();
            for (String pk : parentKey) {
                columns.add(fk.getValue().get(pk));
            }
            parents.add(new ForeignKey(parent, List.copyOf(columns)));
        }
        Set<String> children = new HashSet<>();
        try (ResultSet rs = md.getExportedKeys(catalog, schema, name)) {
            while (rs.next()) {
                children.add(rs.getString("FKTABLE_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return new TableTraits(key, rowsCommute, insertsCommute, Set.copyOf(computed), List.copyOf(parents),
                Set.copyOf(children), triggered || sharedCounter);
    }

    /**
     * Whether a counter default is PostgreSQL's serial of that very column ({@code
     * nextval('t_c_seq'::regclass)}), which no other table draws from; any other sequence (MariaDB's
     * {@code nextval(s)}, one named by hand) may be shared.
     */
    private static boolean ownSerial(String def, String table, String column) {
        String serial = (table + "_" + column + "_seq").toLowerCase(Locale.ROOT);
        String d = def.toLowerCase(Locale.ROOT).replace("\"", "");
        return d.contains("nextval('" + serial + "'") || d.contains("nextval('public." + serial + "'");
    }

    private static List<String> primaryKey(DatabaseMetaData md, String catalog, String schema, String table)
            throws SQLException {
        TreeMap<Short, String> bySeq = new TreeMap<>();
        try (ResultSet rs = md.getPrimaryKeys(catalog, schema, table)) {
            while (rs.next()) {
                bySeq.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return List.copyOf(bySeq.values());
    }

    /** Whether every unique index contains the whole key (none at all for a table without a key). */
    private static boolean uniqueIndexesContain(DatabaseMetaData md, String catalog, String schema, String table,
                                                List<String> key) throws SQLException {
        Map<String, Set<String>> unique = new HashMap<>();
        try (ResultSet rs = md.getIndexInfo(catalog, schema, table, true, false)) {
            while (rs.next()) {
                String column = rs.getString("COLUMN_NAME");
                if (!rs.getBoolean("NON_UNIQUE")) {
                    // an index on an expression has no column name: it contains no key column
                    unique.computeIfAbsent(rs.getString("INDEX_NAME"), k -> new HashSet<>())
                            .add(column == null ? "" : column.toLowerCase(Locale.ROOT));
                }
            }
        }
        return key.isEmpty() ? unique.isEmpty() : unique.values().stream().allMatch(s -> s.containsAll(key));
    }

    /** A foreign key this table holds: its parent as stored, and the key's name. */
    private record Imported(StoredTable parent, String name) {
    }

    /** Per foreign key: parent column → this table's column. */
    private static Map<Imported, Map<String, String>> importedKeys(DatabaseMetaData md, String catalog,
                                                                       String schema, String table) throws SQLException {
        Map<Imported, Map<String, String>> keys = new LinkedHashMap<>();
        try (ResultSet rs = md.getImportedKeys(catalog, schema, table)) {
            while (rs.next()) {
                Imported key = new Imported(new StoredTable(rs.getString("PKTABLE_CAT"), rs.getString("PKTABLE_SCHEM"),
                        rs.getString("PKTABLE_NAME")), String.valueOf(rs.getString("FK_NAME")));
                keys.computeIfAbsent(key, k -> new HashMap<>())
                        .put(rs.getString("PKCOLUMN_NAME").toLowerCase(Locale.ROOT),
                                rs.getString("FKCOLUMN_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return keys;
    }

    /** Triggers (and PostgreSQL's rules): they may touch other rows. */
    private static boolean hasTriggers(Connection c, Engine engine, StoredTable t) throws SQLException {
        // PostgreSQL's rules rewrite a write into others, as triggers add some
        String sql = engine == Engine.POSTGRESQL
                ? "SELECT (SELECT COUNT(*) FROM pg_trigger WHERE tgrelid = to_regclass(?) AND NOT tgisinternal)"
                        + " + (SELECT COUNT(*) FROM pg_rewrite WHERE ev_class = to_regclass(?) AND rulename <> '_RETURN')"
                : "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = COALESCE(?, DATABASE())"
                        + " AND EVENT_OBJECT_TABLE = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (engine == Engine.POSTGRESQL) {
                ps.setString(1, t.quoted());
                ps.setString(2, t.quoted());
            } else {
                ps.setString(1, t.catalog());
                ps.setString(2, t.name());
            }
            try (ResultSet rs = ps.executeQuery()) {
                return !rs.next() || rs.getLong(1) > 0;
            }
        }
    }
}
