package org.phalanx.requestmanager.write;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.KeyValue;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.analysis.TableFootprint;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.RowKeys;

/**
 * Key-level write conflicts ({@code lockGranularity="key"}): a write that provably touches one row
 * of a table, named by its integer primary key, locks and queues on that row only
 * ({@link RowKeys}), so writes of different rows run in parallel on every backend, in any order.
 *
 * <p>They commute only where nothing links rows: so a table qualifies only when every backend is
 * PostgreSQL or MariaDB (they lock rows), its primary key is one integer column, and it has no
 * other unique index (two rows' writes could then fail differently by order), no foreign key
 * either way (a child row's insert and its parent's delete), and no trigger or PostgreSQL rule
 * (it may touch other rows). The statement must be one UPDATE or DELETE restricted by {@code key = value}, not
 * changing the key, or one INSERT of a given key into a table whose columns have no default
 * computed at insert (a sequence, auto-increment, a function), and contain no subquery nor function
 * call (a function may read or write other rows). Anything
 * else keeps its table-level access. A table's traits are read from a backend's metadata once,
 * and forgotten at any DDL.
 */
final class RowLocking {
    private static final Logger LOG = LogManager.getLogger(RowLocking.class);
    private static final Pattern SIMPLE_INSERT = Pattern.compile("(?is)\\s*INSERT\\s+INTO\\b.*");
    private static final Pattern UPSERT = Pattern.compile("(?is).*\\bON\\s+(CONFLICT|DUPLICATE)\\b.*");
    private static final Pattern SUBQUERY = Pattern.compile("(?i)\\bSELECT\\b");
    /** A call: a function may read or write other rows (a column list or VALUES is not one). */
    private static final Pattern CALL = Pattern.compile("([A-Za-z_][\\w.\"]*)\\s*\\(");
    private static final Pattern STRING_LITERAL = Pattern.compile("'(?:[^']|'')*'");
    private static final Set<Integer> INTEGER_TYPES = Set.of(Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT);
    private static final Pattern LITERAL_DEFAULT = Pattern.compile("(?s)\\s*(-?[0-9.]+|'[^']*'(::[a-z ]+)?|NULL|null)\\s*");

    /** A qualifying table: its key column, and whether an INSERT commutes (no default computed at insert). */
    private record Traits(String keyColumn, boolean insertsCommute) {
    }

    private final boolean enabled;
    private final Map<String, Optional<Traits>> traits = new ConcurrentHashMap<>();
    /** Counts the schema changes seen: a write refined before one must not rely on what it found. */
    private final java.util.concurrent.atomic.AtomicLong schemaChanges = new java.util.concurrent.atomic.AtomicLong();

    RowLocking(boolean enabled) {
        this.enabled = enabled;
    }

    /** The write's access at row level where it qualifies; otherwise {@code tableLevel}. */
    Access refine(Access tableLevel, SqlAnalysis a, String sql, List<Object> params, List<Backend> backends, String user) {
        if (!enabled || a.kind() != StatementKind.WRITE || !a.parsed() || a.allTables() || a.footprint() == null
                || !tableLevel.reads().isEmpty() || tableLevel.writes().size() != 1 || backends.isEmpty()
                || SUBQUERY.matcher(sql).find()) {
            return tableLevel;
        }
        String table = tableLevel.writes().iterator().next();
        if (callsFunctions(sql, table)) {
            return tableLevel;
        }
        List<TableFootprint> footprints = a.footprint().tables();
        if (footprints.size() != 1 || !footprints.get(0).table().equals(table) || !a.readTables().stream().allMatch(table::equals)) {
            return tableLevel;
        }
        for (Backend b : backends) {
            if (b.engine() != Engine.POSTGRESQL && b.engine() != Engine.MARIADB) {
                return tableLevel;
            }
        }
        Traits t = traits.computeIfAbsent(table, k -> read(backends.get(0), user, k)).orElse(null);
        if (t == null) {
            return tableLevel;
        }
        TableFootprint f = footprints.get(0);
        boolean insert = SIMPLE_INSERT.matcher(sql).matches();
        if (insert && (!t.insertsCommute() || UPSERT.matcher(sql).matches())) {
            return tableLevel;
        }
        if (!insert && f.columns() != null && f.columns().stream().anyMatch(c -> c.equalsIgnoreCase(t.keyColumn()))) {
            return tableLevel; // the key moves
        }
        if (!insert && f.rowsChange() && !sql.stripLeading().regionMatches(true, 0, "DELETE", 0, 6)) {
            return tableLevel; // REPLACE, MERGE
        }
        for (KeyValue k : f.keys()) {
            if (k.column().equalsIgnoreCase(t.keyColumn())) {
                Object value = k.isParameter()
                        ? (k.parameter() <= params.size() ? params.get(k.parameter() - 1) : null)
                        : k.literal();
                String row = value == null ? null : RowKeys.of(table, value);
                return row == null ? tableLevel : Access.writing(Set.of(row));
            }
        }
        return tableLevel;
    }

    /** Whether the statement calls something (outside string literals) other than its table's column list and VALUES. */
    static boolean callsFunctions(String sql, String table) {
        java.util.regex.Matcher m = CALL.matcher(STRING_LITERAL.matcher(sql).replaceAll("''"));
        while (m.find()) {
            String name = m.group(1).replace("\"", "").toLowerCase(Locale.ROOT);
            if (!name.equals("values") && !name.equals(table) && !name.endsWith("." + table)) {
                return true;
            }
        }
        return false;
    }

    /** After DDL (or a statement not understood): tables, keys, indexes or triggers may have changed. */
    void forget() {
        schemaChanges.incrementAndGet();
        traits.clear();
    }

    /**
     * How many schema changes were seen so far: read it before {@link #refine}, compare once the
     * write holds its locks (a DDL takes the whole database, so it has run its course by then).
     */
    long schemaChanges() {
        return schemaChanges.get();
    }

    private static Optional<Traits> read(Backend b, String user, String table) {
        try (Connection c = b.connectionFor(user)) {
            DatabaseMetaData md = c.getMetaData();
            String catalog = c.getCatalog();
            String schema = b.engine() == Engine.POSTGRESQL ? c.getSchema() : null;
            String key = onlyKeyColumn(md, catalog, schema, table);
            if (key == null || !uniqueIndexesAreTheKey(md, catalog, schema, table, key)
                    || has(md.getImportedKeys(catalog, schema, table)) || has(md.getExportedKeys(catalog, schema, table))
                    || hasTriggers(c, b.engine(), table)) {
                return Optional.empty();
            }
            boolean keyIsInteger = false;
            boolean insertsCommute = true;
            try (ResultSet rs = md.getColumns(catalog, schema, table, null)) {
                while (rs.next()) {
                    if (rs.getString("COLUMN_NAME").equalsIgnoreCase(key)) {
                        keyIsInteger = INTEGER_TYPES.contains(rs.getInt("DATA_TYPE"));
                    }
                    String def = rs.getString("COLUMN_DEF");
                    if ("YES".equalsIgnoreCase(rs.getString("IS_AUTOINCREMENT"))
                            || "YES".equalsIgnoreCase(rs.getString("IS_GENERATEDCOLUMN"))
                            || def != null && !LITERAL_DEFAULT.matcher(def).matches()) {
                        insertsCommute = false;
                    }
                }
            }
            return keyIsInteger ? Optional.of(new Traits(key, insertsCommute)) : Optional.empty();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("table {} keeps table-level write conflicts: {}", table, e.getMessage());
            return Optional.empty();
        }
    }

    private static String onlyKeyColumn(DatabaseMetaData md, String catalog, String schema, String table) throws SQLException {
        String key = null;
        try (ResultSet rs = md.getPrimaryKeys(catalog, schema, table)) {
            while (rs.next()) {
                if (key != null) {
                    return null; // a composite key
                }
                key = rs.getString("COLUMN_NAME");
            }
        }
        return key;
    }

    /** Whether every unique index is on the key column alone. */
    private static boolean uniqueIndexesAreTheKey(DatabaseMetaData md, String catalog, String schema, String table,
                                                  String key) throws SQLException {
        Map<String, Set<String>> unique = new HashMap<>();
        try (ResultSet rs = md.getIndexInfo(catalog, schema, table, true, false)) {
            while (rs.next()) {
                String column = rs.getString("COLUMN_NAME");
                if (!rs.getBoolean("NON_UNIQUE") && column != null) {
                    unique.computeIfAbsent(rs.getString("INDEX_NAME"), k -> new HashSet<>()).add(column.toLowerCase(Locale.ROOT));
                }
            }
        }
        return unique.values().stream().allMatch(Set.of(key.toLowerCase(Locale.ROOT))::equals);
    }

    private static boolean has(ResultSet rs) throws SQLException {
        try (rs) {
            return rs.next();
        }
    }

    /** Triggers (and PostgreSQL's rules): they may touch other rows. */
    private static boolean hasTriggers(Connection c, Engine engine, String table) throws SQLException {
        // PostgreSQL's rules rewrite a write into others, as triggers add some
        String sql = engine == Engine.POSTGRESQL
                ? "SELECT (SELECT COUNT(*) FROM pg_trigger WHERE tgrelid = to_regclass(?) AND NOT tgisinternal)"
                        + " + (SELECT COUNT(*) FROM pg_rewrite WHERE ev_class = to_regclass(?) AND rulename <> '_RETURN')"
                : "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = DATABASE()"
                        + " AND EVENT_OBJECT_TABLE = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 1; i <= sql.chars().filter(ch -> ch == '?').count(); i++) {
                ps.setString(i, table);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return !rs.next() || rs.getLong(1) > 0;
            }
        }
    }
}
