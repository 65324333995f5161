package org.phalanx.requestmanager.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.phalanx.engine.Engine;

/** The canonical row text and its hash, the column kinds, key ranges and the majority rule. */
class CanonicalRowTest {

    @Test
    void theJavaHashIsWhatTheEnginesComputeFromMd5() {
        // md5('abc') = 900150983cd2...: PostgreSQL's ('x' || substr(md5('abc'), 1, 8))::bit(32)::bigint
        assertEquals(0x90015098L, CanonicalRow.hashOf("abc"));
        assertEquals(2416005272L, CanonicalRow.hashOf("abc"), "unsigned");
        // md5('héllo') = be50e847... over UTF-8, as PostgreSQL and MariaDB (utf8mb4) hash it
        assertEquals(0xbe50e847L, CanonicalRow.hashOf("héllo"));
    }

    @Test
    void kindsComeFromTheDeclaredTypeName() {
        // SQLite reports NUMERIC, DECIMAL and REAL all as FLOAT, and BLOB as VARCHAR: the name decides
        assertEquals(ColumnKind.DECIMAL, ColumnKind.of(Types.FLOAT, "NUMERIC"));
        assertEquals(ColumnKind.DECIMAL, ColumnKind.of(Types.FLOAT, "DECIMAL(10,2)"));
        assertEquals(ColumnKind.FLOAT, ColumnKind.of(Types.FLOAT, "REAL"));
        assertEquals(ColumnKind.BINARY, ColumnKind.of(Types.VARCHAR, "BLOB"));
        assertEquals(ColumnKind.BOOLEAN, ColumnKind.of(Types.INTEGER, "BOOLEAN"));
        assertEquals(ColumnKind.BOOLEAN, ColumnKind.of(Types.BIT, "bool"));
        assertEquals(ColumnKind.INTEGER, ColumnKind.of(Types.INTEGER, "INT UNSIGNED"));
        assertEquals(ColumnKind.TEXT, ColumnKind.of(Types.VARCHAR, "character varying"));
        assertEquals(ColumnKind.TEMPORAL, ColumnKind.of(Types.VARCHAR, "TIMESTAMP"));
        assertEquals(ColumnKind.INTEGER, ColumnKind.of(Types.BIGINT, "whatever"), "unknown names fall back to the JDBC type");
        assertTrue(ColumnKind.DECIMAL.portable());
        assertTrue(!ColumnKind.FLOAT.portable() && !ColumnKind.TEMPORAL.portable());
    }

    /** The row text of one row of a one-table SQLite database, computed by SQLite. */
    private static String sqliteRowText(String create, String insert) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:"); Statement s = c.createStatement()) {
            s.execute(create);
            s.execute(insert);
            TableShape shape = TableShape.read(c, Engine.SQLITE, "t").orElseThrow();
            try (ResultSet rs = s.executeQuery("SELECT " + CanonicalRow.rowText(Engine.SQLITE, shape, "\"") + " FROM t")) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    @Test
    void fieldsAreLengthPrefixedAndNullIsADash() throws Exception {
        String create = "CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(10), price NUMERIC(10,2), ok BOOLEAN,"
                + " data BLOB, note TEXT)";
        assertEquals("1:7|3:a|b|5:12.50|1:1|4:00ff|-",
                sqliteRowText(create, "INSERT INTO t VALUES (7, 'a|b', 12.5, 1, x'00ff', NULL)"));
        assertEquals("1:7|3:a|b|5:12.50|1:1|4:00ff|0:",
                sqliteRowText(create, "INSERT INTO t VALUES (7, 'a|b', '12.50', 1, x'00ff', '')"),
                "the empty string is not NULL; a decimal written as text has the same text");
        assertNotEquals(CanonicalRow.hashOf("1:7|-"), CanonicalRow.hashOf("1:7|0:"));
    }

    @Test
    void sqliteHashesInsideTheEngineWithTheRegisteredFunction() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:"); Statement s = c.createStatement()) {
            SqliteRowHash.register(c);
            try (ResultSet rs = s.executeQuery("SELECT phalanx_row_hash('abc'), phalanx_row_hash(NULL)")) {
                rs.next();
                assertEquals(2416005272L, rs.getLong(1));
                assertEquals(null, rs.getObject(2));
            }
        }
    }

    @Test
    void keyRangesBoundBelowExclusiveAndAboveInclusive() {
        KeyRange middle = new KeyRange(List.of(10), List.of(20));
        assertEquals(" WHERE \"id\" > ? AND \"id\" <= ?", middle.where(List.of("\"id\"")));
        assertEquals("id > 10 AND id <= 20", middle.describe(List.of("id")));
        KeyRange composite = new KeyRange(List.of(1, "x"), null);
        assertEquals(" WHERE (a, b) > (?, ?)", composite.where(List.of("a", "b")));
        assertEquals("(a, b) > (1, 'x')", composite.describe(List.of("a", "b")));
        assertEquals("", KeyRange.ALL.where(List.of("id")));
        assertEquals("whole table", KeyRange.ALL.describe(List.of("id")));
    }

    @Test
    void aMajorityIsMoreThanHalfAndAbsenceCounts() {
        Map<String, Long> values = new java.util.LinkedHashMap<>();
        values.put("b1", 5L);
        values.put("b2", 5L);
        values.put("b3", 6L);
        Optional<Majority.Holder<Long>> m = Majority.of(values);
        assertEquals(5L, m.orElseThrow().value());
        assertEquals(List.of("b3"), Majority.outvoted(values, m.get()));

        values.put("b1", null);
        values.put("b2", null);
        assertEquals(List.of("b3"), Majority.outvoted(values, Majority.of(values).orElseThrow()), "absent on two: extra on b3");

        Map<String, Long> two = new java.util.LinkedHashMap<>();
        two.put("b1", 1L);
        two.put("b2", 2L);
        assertTrue(Majority.of(two).isEmpty(), "two replicas that differ: nobody can tell");
    }
}
