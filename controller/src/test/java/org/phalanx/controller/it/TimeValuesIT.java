package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * TIME values keep their fraction of a second, written and read, as through the engine's own
 * driver (they were cut to whole seconds both ways: {@code java.sql.Time} has no fraction); and
 * MariaDB's TIME, a duration, keeps values no time of day holds ({@code 838:59:59}, negative
 * ones), which were read as a time of day modulo 24 hours.
 */
class TimeValuesIT extends WithEngineCluster {
    @Test
    void postgresTimesKeepTheirMicroseconds() throws Exception {
        cluster = new EngineCluster(dir, Kind.POSTGRESQL, 2, "phalanx_times", "");
        fractionsRoundTrip();
    }

    @Test
    void mariaDbTimesKeepTheirMicrosecondsAndDurations() throws Exception {
        cluster = new EngineCluster(dir, Kind.MARIADB, 2, "phalanx_times", "");
        fractionsRoundTrip();
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO tm VALUES (3, '838:59:59.999999'), (4, '-01:30:00'), (5, '25:00:00')");
            List<String> viaPhalanx = texts(c, "SELECT t FROM tm WHERE id >= 3 ORDER BY id");
            try (Connection direct = cluster.direct(cluster.backends().get(0))) {
                assertEquals(texts(direct, "SELECT t FROM tm WHERE id >= 3 ORDER BY id"), viaPhalanx);
            }
            assertEquals(List.of("838:59:59.999999", "-01:30:00.000000", "25:00:00.000000"), viaPhalanx);
        }
    }

    private void fractionsRoundTrip() throws Exception {
        LocalTime precise = LocalTime.of(1, 2, 3, 456_789_000);
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE tm (id INTEGER PRIMARY KEY, t TIME(6))");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tm VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setObject(2, precise);
                ps.executeUpdate();
            }
            s.executeUpdate("INSERT INTO tm VALUES (2, '10:00:00.123456')");
            try (ResultSet rs = s.executeQuery("SELECT t FROM tm WHERE id <= 2 ORDER BY id")) {
                rs.next();
                assertEquals(precise, rs.getObject(1, LocalTime.class));
                rs.next();
                assertEquals(LocalTime.of(10, 0, 0, 123_456_000), rs.getObject(1, LocalTime.class));
            }
            try (Connection direct = cluster.direct(cluster.backends().get(1));
                 ResultSet rs = direct.createStatement().executeQuery("SELECT t FROM tm WHERE id = 1")) {
                rs.next();
                assertEquals(precise, rs.getObject(1, LocalTime.class), "stored with its microseconds");
            }
        }
        assertEquals(2, cluster.assertIdentical("tm", "id"));
    }

    private static List<String> texts(Connection c, String sql) throws Exception {
        List<String> texts = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                texts.add(rs.getString(1));
            }
        }
        return texts;
    }
}
