package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.phalanx.engine.Engine;

/**
 * The same schema on every engine — every type the portable dump must carry, an identity column,
 * foreign keys, a mixed-case table and reserved words — with rows at the edges of each type.
 */
final class Fixture {
    static final String[] KIND_COLUMNS = {"id", "i", "big", "amount", "txt", "vc", "flag", "ts", "d", "data", "dbl", "parent_id"};

    private Fixture() {
    }

    static void create(Connection c, Engine engine) throws SQLException {
        String auto = switch (engine) {
            case SQLITE -> "id INTEGER PRIMARY KEY AUTOINCREMENT";
            case POSTGRESQL -> "id SERIAL PRIMARY KEY";
            default -> "id INT AUTO_INCREMENT PRIMARY KEY";
        };
        String blob = engine == Engine.POSTGRESQL ? "BYTEA" : engine == Engine.MARIADB ? "LONGBLOB" : "BLOB";
        String ts = engine == Engine.MARIADB ? "DATETIME(6)" : engine == Engine.POSTGRESQL ? "TIMESTAMP(6)" : "TIMESTAMP";
        String dbl = engine == Engine.POSTGRESQL ? "DOUBLE PRECISION" : "DOUBLE";
        String q = engine == Engine.MARIADB ? "`" : "\"";
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE parent (" + auto + ", name VARCHAR(40) NOT NULL DEFAULT 'none', active BOOLEAN DEFAULT "
                    + (engine == Engine.POSTGRESQL ? "true" : "1") + ")");
            s.execute("CREATE TABLE kinds (id INTEGER PRIMARY KEY, i INTEGER, big BIGINT, amount DECIMAL(18,4), txt TEXT,"
                    + " vc VARCHAR(300), flag BOOLEAN, ts " + ts + ", d DATE, data " + blob + ", dbl " + dbl + ","
                    + " parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE)");
            s.execute("CREATE INDEX kinds_by_parent ON kinds(parent_id)");
            s.execute("CREATE TABLE " + q + "Mixed Case" + q + " (" + q + "Key" + q + " VARCHAR(20) PRIMARY KEY, "
                    + q + "order" + q + " INTEGER, " + q + "group" + q + " VARCHAR(10))");
        }
        try (Statement s = c.createStatement()) {
            s.execute("INSERT INTO parent (name) VALUES ('one')");
            s.execute("INSERT INTO parent (name, active) VALUES ('two', " + (engine == Engine.POSTGRESQL ? "false" : "0") + ")");
            s.execute("INSERT INTO parent (name) VALUES ('three')");
            s.execute("INSERT INTO parent (id, name) VALUES (10, 'ten')"); // an explicit identity value
            s.execute("DELETE FROM parent WHERE id = 3");
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO kinds VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Object[] row : rows()) {
                for (int i = 0; i < row.length; i++) {
                    bind(p, i + 1, row[i], engine);
                }
                p.addBatch();
            }
            p.executeBatch();
        }
        try (Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + q + "Mixed Case" + q + " VALUES ('A key', 1, 'g1'), ('a key', NULL, NULL)");
        }
    }

    /** Rows of {@code kinds}: the extremes, awkward text and every column NULL once. */
    static List<Object[]> rows() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {1, Integer.MAX_VALUE, Long.MAX_VALUE, new BigDecimal("12345678901.1234"), "plain",
                "v", true, LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123456000), LocalDate.of(2024, 2, 29), all,
                Math.PI, 1});
        rows.add(new Object[] {2, Integer.MIN_VALUE, Long.MIN_VALUE, new BigDecimal("-0.0001"),
                "é ü 漢字 😀 'quoted' \"double\" <tag> & ]]> \n line\ttab\r\ncrlf", "x".repeat(300), false,
                LocalDateTime.of(1970, 1, 1, 0, 0), LocalDate.of(1, 1, 1), new byte[0], -0.5e-300, 10});
        rows.add(new Object[] {3, 0, 0L, new BigDecimal("0.0000"), "", "", true,
                LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999999000), LocalDate.of(9999, 12, 31),
                "text as bytes".getBytes(), 1e300, 2});
        rows.add(new Object[] {4, null, null, null, null, null, null, null, null, null, null, null});
        rows.add(new Object[] {5, 42, 1L << 40, new BigDecimal("9999999999.9999"), "x".repeat(5000) + "\u0001",
                "a\nb", false, LocalDateTime.of(2000, 6, 15, 12, 0, 0, 1000), LocalDate.of(2000, 6, 15),
                new byte[] {0}, 0.1, 10});
        return rows;
    }

    private static void bind(PreparedStatement p, int i, Object v, Engine engine) throws SQLException {
        if (v == null) {
            p.setNull(i, java.sql.Types.NULL);
        } else if (v instanceof LocalDateTime t && engine == Engine.SQLITE) {
            p.setString(i, t.toLocalDate() + " " + t.toLocalTime());
        } else if (v instanceof LocalDate d && engine == Engine.SQLITE) {
            p.setString(i, d.toString());
        } else if (v instanceof Boolean b && engine == Engine.SQLITE) {
            p.setInt(i, b ? 1 : 0);
        } else if (v instanceof byte[] b) {
            p.setBytes(i, b);
        } else {
            p.setObject(i, v);
        }
    }

    /** The rows of {@code kinds} as comparable text, whatever engine they are read from. */
    static List<String> readKinds(Connection c, Engine engine) throws SQLException {
        List<String> out = new ArrayList<>();
        String q = engine == Engine.MARIADB ? "`" : "\"";
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM kinds ORDER BY id")) {
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                b.append(rs.getLong("id")).append('|').append(nullable(rs, "i", rs.getLong("i")))
                        .append('|').append(nullable(rs, "big", rs.getLong("big")));
                Object dec = rs.getObject("amount");
                b.append('|').append(dec == null ? "null" : new BigDecimal(dec.toString()).stripTrailingZeros().toPlainString());
                b.append('|').append(rs.getString("txt")).append('|').append(rs.getString("vc"));
                Object flag = rs.getObject("flag");
                b.append('|').append(flag == null ? "null" : flag instanceof Boolean f ? f : ((Number) flag).intValue() != 0);
                b.append('|').append(temporal(rs, "ts", engine)).append('|').append(temporal(rs, "d", engine));
                byte[] data = rs.getBytes("data");
                b.append('|').append(data == null ? "null" : HexFormat.of().formatHex(data));
                double dbl = rs.getDouble("dbl");
                b.append('|').append(rs.wasNull() ? "null" : Double.toString(dbl));
                b.append('|').append(nullable(rs, "parent_id", rs.getLong("parent_id")));
                out.add(b.toString());
            }
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + q + "Mixed Case" + q + " ORDER BY 1")) {
            while (rs.next()) {
                out.add("mixed|" + rs.getString(1) + "|" + rs.getObject(2) + "|" + rs.getString(3));
            }
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, name, active FROM parent ORDER BY id")) {
            while (rs.next()) {
                Object active = rs.getObject(3);
                out.add("parent|" + rs.getLong(1) + "|" + rs.getString(2) + "|"
                        + (active instanceof Boolean a ? a : ((Number) active).intValue() != 0));
            }
        }
        return out;
    }

    private static Object nullable(ResultSet rs, String column, long value) throws SQLException {
        return rs.wasNull() ? "null" : value;
    }

    private static String temporal(ResultSet rs, String column, Engine engine) throws SQLException {
        Object raw = rs.getObject(column);
        if (raw == null) {
            return "null";
        }
        if (engine == Engine.SQLITE) {
            String s = raw.toString().replace('T', ' ');
            return s.length() == 10 ? s : org.phalanx.recoverylog.dump.ddl.SqliteValues.timestampText(
                    org.phalanx.recoverylog.dump.ddl.SqliteValues.parseTimestamp(s));
        }
        if (column.equals("d")) {
            return rs.getObject(column, LocalDate.class).toString();
        }
        return org.phalanx.recoverylog.dump.ddl.SqliteValues.timestampText(rs.getObject(column, LocalDateTime.class));
    }

    /** The id the next parent inserted without one gets. */
    static long nextParentId(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("INSERT INTO parent (name) VALUES ('next')");
            try (ResultSet rs = s.executeQuery("SELECT id FROM parent WHERE name = 'next'")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    static void assertSameBytes(byte[] expected, byte[] actual) {
        assertArrayEquals(expected, actual, () -> Arrays.toString(actual));
    }

    static void assertSameRows(List<String> expected, List<String> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": row count");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": row " + i);
        }
    }
}
