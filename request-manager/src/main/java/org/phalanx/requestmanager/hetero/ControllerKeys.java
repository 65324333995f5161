package org.phalanx.requestmanager.hetero;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.rowset.RowSetMetaDataImpl;
import org.phalanx.requestmanager.api.Result;

/**
 * Generated keys chosen by the controller, so every replica stores the same key: engines' own
 * counters disagree (a rolled-back insert advances PostgreSQL's sequence and MariaDB's
 * AUTO_INCREMENT but SQLite reuses the value). Per table with an auto-generated key column a
 * counter starts from the column's MAX when the table is first written (read on a replica that
 * has applied every earlier write on it) and hands out keys inside the total order; an INSERT
 * that does not name the key column is rewritten to carry its keys, and the recovery log keeps
 * the rewritten text, so replay stores the same keys again. Keys given up by a rollback are not
 * reused. The application gets the keys through {@code getGeneratedKeys()}.
 */
public final class ControllerKeys {
    /** What is known of a table ({@link Learnt}), and the last key handed out. */
    public static final class TableKeys {
        private final Learnt learnt;
        private long last;

        TableKeys(Learnt learnt) {
            this.learnt = learnt;
            this.last = learnt.max();
        }

        /** What was learnt of the table. */
        public Learnt learnt() {
            return learnt;
        }

        /**
         * The next keys; call inside the total order so keys follow it. A planned insert keeps its
         * table's counter: the table may be forgotten (to be learnt again) before its keys are chosen.
         */
        public synchronized long[] next(int count) {
            long[] keys = new long[count];
            for (int i = 0; i < count; i++) {
                keys[i] = ++last;
            }
            return keys;
        }
    }

    /** {@code nextval('seq')} or {@code nextval('seq'::regclass)} in a column default. */
    private static final java.util.regex.Pattern NEXTVAL_DEFAULT =
            java.util.regex.Pattern.compile("(?i)^\\s*nextval\\(\\s*'([^']+)'");

    private final Map<String, TableKeys> tables = new ConcurrentHashMap<>();
    private final Map<String, Optional<KeyedInsert>> shapes = new ConcurrentHashMap<>();

    /** The insert's shape (cached by text), or null if keys cannot be added to it. */
    public KeyedInsert shape(String sql) {
        if (shapes.size() > 10_000) {
            shapes.clear();
        }
        return shapes.computeIfAbsent(sql, s -> Optional.ofNullable(KeyedInsert.of(s))).orElse(null);
    }

    /** Records what {@link #learn} read. */
    public void learned(String tableKey, Learnt learnt) {
        tables.putIfAbsent(tableKey, new TableKeys(learnt));
    }

    /** A known table's counter (null if not known). */
    public TableKeys counter(String tableKey) {
        return tables.get(tableKey);
    }

    /** Keys an INSERT gave itself: the counter moves past them so it never hands them out. */
    public void given(String tableKey, List<Long> keys) {
        TableKeys t = tables.get(tableKey);
        if (t != null) {
            synchronized (t) {
                for (long k : keys) {
                    t.last = Math.max(t.last, k);
                }
            }
        }
    }

    /** A statement changed a table (named with or without its schema): learn every table of that name again. */
    public void forget(String table) {
        String bare = bare(table);
        tables.keySet().removeIf(k -> bare(k).equals(bare));
    }

    private static String bare(String table) {
        return table.substring(table.lastIndexOf('.') + 1);
    }

    /** Learn every table again but {@code kept} (null: none) at its next insert. */
    public void forgetAllBut(String kept) {
        tables.keySet().removeIf(t -> !t.equals(kept));
    }

    /**
     * The learnt key column, its JDBC type, the last key used, the sequence it takes values from (or
     * null) and whether the user may move that sequence ({@code setval} needs its UPDATE privilege).
     */
    public record Learnt(Optional<String> column, int jdbcType, long max, String sequence, boolean sequenceWritable) {
    }

    /**
     * Reads the table's auto-generated key column (IS_AUTOINCREMENT), its sequence, and the last key
     * used: its MAX, or the sequence's last value where that is further (values drawn by {@code
     * nextval} outside the controller's inserts, or given up by rollbacks).
     */
    public static Learnt learn(Connection c, String table) throws SQLException {
        String[] found = autoIncrementColumn(c, table);
        if (found == null) {
            return new Learnt(Optional.empty(), Types.BIGINT, 0, null, false);
        }
        String sequence = sequenceOf(c, found);
        long max;
        // the table found, in its schema where the engine has them (PostgreSQL's names quoted, as found)
        String from = found[4] == null ? found[0] : quoted(found[4]) + "." + quoted(found[0]);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MAX(" + found[1] + ") FROM " + from)) {
            rs.next();
            max = rs.getLong(1);
        }
        boolean readable = false;
        boolean writable = false;
        if (sequence != null) {
            try (java.sql.PreparedStatement ps = c.prepareStatement(
                    "SELECT has_sequence_privilege(?, 'SELECT'), has_sequence_privilege(?, 'UPDATE')")) {
                ps.setString(1, sequence);
                ps.setString(2, sequence);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    readable = rs.getBoolean(1);
                    writable = rs.getBoolean(2);
                }
            }
        }
        long last = readable ? Math.max(max, lastValue(c, sequence)) : Math.max(max, autoIncrementBefore(c, found[0]));
        return new Learnt(Optional.of(found[1]), Integer.parseInt(found[2]), last, sequence, writable);
    }

    /**
     * On MariaDB, one less than the table's AUTO_INCREMENT (where a table declared {@code
     * AUTO_INCREMENT=1000}, or altered so, starts); elsewhere 0.
     */
    private static long autoIncrementBefore(Connection c, String table) throws SQLException {
        String product = c.getMetaData().getDatabaseProductName();
        if (!"MariaDB".equalsIgnoreCase(product) && !"MySQL".equalsIgnoreCase(product)) {
            return 0;
        }
        try (java.sql.PreparedStatement ps = c.prepareStatement("SELECT AUTO_INCREMENT FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Math.max(0, rs.getLong(1) - 1) : 0;
            }
        }
    }

    /**
     * The sequence the key column takes its values from: the one its default draws from (a
     * PostgreSQL serial), or on PostgreSQL an identity column's; null if none.
     */
    private static String sequenceOf(Connection c, String[] found) throws SQLException {
        java.util.regex.Matcher nextval = found[3] == null ? null : NEXTVAL_DEFAULT.matcher(found[3]);
        if (nextval != null && nextval.find()) {
            return nextval.group(1);
        }
        if (!"PostgreSQL".equals(c.getMetaData().getDatabaseProductName())) {
            return null;
        }
        try (java.sql.PreparedStatement ps = c.prepareStatement("SELECT pg_get_serial_sequence(?, ?)")) {
            ps.setString(1, quoted(found[4]) + "." + quoted(found[0]));
            ps.setString(2, found[1]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** The last value the sequence handed out (one less than its start if it never did). */
    private static long lastValue(Connection c, String sequence) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT last_value, is_called FROM " + sequence)) {
            rs.next();
            return rs.getBoolean(2) ? rs.getLong(1) : rs.getLong(1) - 1;
        }
    }

    /** The table's auto-generated key column (IS_AUTOINCREMENT), if it has one. */
    public static Optional<String> generatedKeyColumn(Connection c, String table) throws SQLException {
        String[] found = autoIncrementColumn(c, table);
        return found == null ? Optional.empty() : Optional.of(found[1]);
    }

    /**
     * {table name as the engine knows it, key column, its JDBC type, its default, the table's schema},
     * or null when the table has no generated key.
     */
    private static String[] autoIncrementColumn(Connection c, String table) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        // a table named with its schema is looked for there; one named alone, in the connection's
        // current schema first (a PostgreSQL table of that name in another schema is another table)
        int dot = table.lastIndexOf('.');
        String bare = dot < 0 ? table : table.substring(dot + 1);
        List<String> schemas = new ArrayList<>();
        schemas.add(dot < 0 ? c.getSchema() : unquoted(table.substring(0, dot)));
        if (dot < 0 && schemas.get(0) != null) {
            schemas.add(null);
        }
        for (String schema : schemas) {
            String[] found = autoIncrementColumn(md, schema, unquoted(bare));
            if (found != null) {
                return found[0] == null ? null : found;
            }
        }
        return null;
    }

    private static String unquoted(String name) {
        return name.replace("\"", "").replace("`", "");
    }

    /** The table's key column in {@code schema} (null: any), {null} if it has none, or null if no such table. */
    private static String[] autoIncrementColumn(DatabaseMetaData md, String schema, String table) throws SQLException {
        // the name as written, then as PostgreSQL (lower case) and others (upper case) fold it
        for (String name : new String[] {table, table.toLowerCase(Locale.ROOT), table.toUpperCase(Locale.ROOT)}) {
            boolean found = false;
            try (ResultSet rs = md.getColumns(null, schema, name, "%")) {
                while (rs.next()) {
                    found = true;
                    if ("YES".equalsIgnoreCase(rs.getString("IS_AUTOINCREMENT"))) {
                        return new String[] {rs.getString("TABLE_NAME"), rs.getString("COLUMN_NAME"),
                                Integer.toString(rs.getInt("DATA_TYPE")), rs.getString("COLUMN_DEF"),
                                rs.getString("TABLE_SCHEM")};
                    }
                }
            }
            if (found) {
                return new String[1]; // a table without a generated key
            }
        }
        return null;
    }

    /** The keys as the result of {@code getGeneratedKeys()}: one BIGINT column named after the key column. */
    public static Result.Cached keysResult(String column, int jdbcType, long[] keys) throws SQLException {
        // an INTEGER key comes back as Integer, as the engine's driver gives it (pgjdbc for a serial)
        boolean integer = jdbcType == Types.INTEGER || jdbcType == Types.SMALLINT || jdbcType == Types.TINYINT;
        RowSetMetaDataImpl md = new RowSetMetaDataImpl();
        md.setColumnCount(1);
        md.setColumnName(1, column);
        md.setColumnLabel(1, column);
        md.setColumnType(1, integer ? Types.INTEGER : Types.BIGINT);
        md.setColumnTypeName(1, integer ? "INTEGER" : "BIGINT");
        md.setTableName(1, "");
        md.setSchemaName(1, "");
        md.setCatalogName(1, "");
        md.setSigned(1, true);
        md.setNullable(1, java.sql.ResultSetMetaData.columnNoNulls);
        List<Object[]> rows = new ArrayList<>(keys.length);
        for (long key : keys) {
            Object value = key; // (not a ?: expression: it would promote an Integer to long)
            if (integer) {
                value = (int) key;
            }
            rows.add(new Object[] {value});
        }
        return new Result.Cached(md, rows);
    }
}
