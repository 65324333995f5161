package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * PostgreSQL values through the Phalanx driver as through pgjdbc: arrays, and the text of booleans
 * and bytea. Arrays (Hibernate maps a {@code List} or
 * a Java array this way): written with {@code setArray(createArrayOf(...))}, {@code setObject} of a
 * Java array or an {@code Array}, read with {@code getArray} and {@code getObject}, compared with
 * what pgjdbc reads from one of the replicas directly; the replicas end identical. On other engines,
 * which have no arrays, a clear refusal.
 */
class PostgresValuesIT extends WithEngineCluster {
    private static final String[] ODD_TEXT = {"plain", "a b", "say \"hi\"", "back\\slash", "", "NULL", null, "{x,y}", "é"};

    @Test
    void arraysAreWrittenAndReadAsThroughPgjdbc() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_arrays", "");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE docs (id INTEGER PRIMARY KEY, tags TEXT[], scores INT[], grid INT[][],"
                    + " prices NUMERIC(6,2)[])");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO docs VALUES (?, ?, ?, ?, ?)")) {
                insert.setInt(1, 1);
                insert.setArray(2, c.createArrayOf("text", ODD_TEXT));
                insert.setObject(3, new int[] {3, 1, 2});
                insert.setObject(4, new Integer[][] {{1, 2}, {3, 4}});
                insert.setObject(5, c.createArrayOf("numeric", new Object[] {new java.math.BigDecimal("1.50"), null}));
                insert.executeUpdate();
                insert.setInt(1, 2);
                insert.setNull(2, Types.ARRAY);
                insert.setObject(3, new Integer[0], Types.ARRAY);
                insert.setNull(4, Types.ARRAY);
                insert.setNull(5, Types.ARRAY);
                insert.executeUpdate();
            }
            try (PreparedStatement find = c.prepareStatement("SELECT id FROM docs WHERE scores @> ? ORDER BY id")) {
                find.setArray(1, c.createArrayOf("integer", new Object[] {2}));
                assertEquals(List.of(1), ids(find));
            }
            List<String> viaPhalanx = rows(c);
            try (Connection direct = cluster.direct(cluster.backends().get(0))) {
                assertEquals(rows(direct), viaPhalanx, "as pgjdbc reads the same rows");
            }
            try (ResultSet rs = s.executeQuery("SELECT tags, scores, grid FROM docs WHERE id = 1")) {
                rs.next();
                assertInstanceOf(Array.class, rs.getObject(1), "getObject of an array column is an Array, as pgjdbc's");
                assertArrayEquals(ODD_TEXT, (String[]) rs.getArray(1).getArray());
                assertArrayEquals(new Integer[] {3, 1, 2}, (Integer[]) rs.getObject(2, Array.class).getArray());
                assertArrayEquals(new Integer[][] {{1, 2}, {3, 4}}, (Integer[][]) rs.getArray(3).getArray());
                assertEquals("{3,1,2}", rs.getString(2));
            }
            try (ResultSet rs = s.executeQuery("SELECT tags FROM docs WHERE id = 2")) {
                rs.next();
                assertNull(rs.getArray(1));
            }
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(2, cluster.assertIdentical("docs", "id"));
    }

    /** getString of a boolean and of a bytea: PostgreSQL's text ("t", "\\x0102"), as pgjdbc gives it. */
    @Test
    void booleansAndByteaAsTextAreWhatPgjdbcGives() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_pg_text", "");
        String query = "SELECT true, false, '\\x01ff'::bytea, ''::bytea";
        try (Connection c = cluster.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query);
             Connection direct = cluster.direct(cluster.backends().get(0)); Statement ds = direct.createStatement();
             ResultSet drs = ds.executeQuery(query)) {
            rs.next();
            drs.next();
            for (int i = 1; i <= 4; i++) {
                assertEquals(drs.getString(i), rs.getString(i), "column " + i);
            }
            assertEquals("t", rs.getString(1));
            assertEquals(Boolean.TRUE, rs.getObject(1));
        }
    }

    @Test
    void otherEnginesRefuseArrays() throws Exception {
        cluster = new EngineCluster(dir, Kind.SQLITE, 2, "phalanx_arrays", "");
        try (Connection c = cluster.connect(); PreparedStatement ps = c.prepareStatement("SELECT ?")) {
            assertThrows(SQLFeatureNotSupportedException.class, () -> c.createArrayOf("text", new Object[] {"a"}));
            assertThrows(SQLFeatureNotSupportedException.class, () -> ps.setObject(1, new String[] {"a"}));
        }
    }

    private static List<Integer> ids(PreparedStatement ps) throws Exception {
        List<Integer> ids = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }

    /** Each row's arrays as their getArray elements and getString text, whichever driver reads them. */
    private static List<String> rows(Connection c) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT tags, scores, grid, prices FROM docs ORDER BY id")) {
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= 4; i++) {
                    Array a = rs.getArray(i);
                    row.append(a == null ? "null" : a.getBaseType() + ":" + java.util.Arrays.deepToString((Object[]) a.getArray()))
                            .append(" | ").append(rs.getString(i)).append(" || ");
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }
}
