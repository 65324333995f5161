package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * MariaDB values that a type alone would misread, through the Phalanx driver as through
 * Connector/J reading a replica directly: a {@code BIT(8)} (it came back as {@code true}, its
 * bits lost), a {@code TINYINT(1)} holding 2 (read as a boolean, it came back as 1 and "true"), a
 * {@code YEAR} (a date to Connector/J: getInt failed; getTimestamp and getObject(LocalDate.class) took
 * its number for milliseconds), a {@code BIGINT UNSIGNED} from 2^63 on (it came back negative)
 * (an outside tester's findings).
 */
class MariaDbValuesIT extends WithEngineCluster {

    @Test
    void bitsTinyIntOneAndYearReadAsThroughConnectorJ() throws Exception {
        cluster = new EngineCluster(dir, Kind.MARIADB, 2, "phalanx_mariadb_values", "");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE v (id INT PRIMARY KEY, b1 BIT(1), b8 BIT(8), t1 TINYINT(1), bo BOOLEAN,"
                    + " y YEAR, u BIGINT UNSIGNED)");
            s.executeUpdate("INSERT INTO v VALUES (1, b'1', b'10100101', 2, TRUE, 2155, 18446744073709551615),"
                    + " (2, b'0', b'00000001', -1, FALSE, 1999, 9223372036854775808), (3, b'1', b'11111111', 1, TRUE,"
                    + " 2024, 5), (4, NULL, NULL, NULL, NULL, NULL, NULL)");
        }
        List<String> phalanx;
        try (Connection c = cluster.connect()) {
            phalanx = read(c);
        }
        try (Connection direct = cluster.direct(cluster.backends().get(0))) {
            assertEquals(read(direct), phalanx);
        }
    }

    /** Each value as getObject, getInt, getString, getBoolean and (for bits) getBytes give it. */
    private static List<String> read(Connection c) throws SQLException {
        List<String> seen = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM v ORDER BY id")) {
            while (rs.next()) {
                Object b8 = rs.getObject("b8");
                seen.add(rs.getInt("id") + ": b1 " + rs.getObject("b1") + " " + rs.getBoolean("b1")
                        + "; b8 " + (b8 == null ? null : java.util.HexFormat.of().formatHex((byte[]) b8))
                        + "; t1 " + rs.getObject("t1") + " " + rs.getInt("t1") + " " + rs.getString("t1")
                        + " " + rs.getBoolean("t1")
                        + "; bo " + rs.getObject("bo") + " " + rs.getInt("bo") + " " + rs.getString("bo")
                        + "; y " + rs.getObject("y") + " " + rs.getInt("y") + " " + rs.getString("y")
                        + " " + rs.getDate("y") + " " + rs.getTimestamp("y") + " " + rs.getObject("y", LocalDate.class)
                        + " " + rs.getObject("y", LocalDateTime.class) + " " + typed(rs.getObject("y", Object.class))
                        + "; u " + typed(rs.getObject("u")) + " " + rs.getString("u") + " " + rs.getBigDecimal("u")
                        + " " + typed(rs.getObject("u", Object.class)));
                byte[] bytes = rs.getBytes("b8");
                assertArrayEquals((byte[]) b8, bytes);
            }
        }
        return seen;
    }

    private static String typed(Object v) {
        return v == null ? "null" : v.getClass().getSimpleName() + " " + v;
    }
}
