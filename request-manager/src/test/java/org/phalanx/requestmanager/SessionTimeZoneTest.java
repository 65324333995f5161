package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.testing.Sessions.update;
import static org.phalanx.testing.Sessions.value;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.testing.ServerReplicas;

/**
 * The clock values the controller chooses for a write are written in the session's own time zone,
 * as one database computes them: PostgreSQL's CURRENT_DATE and LOCALTIMESTAMP after {@code SET TIME
 * ZONE}, MariaDB's NOW() after {@code SET time_zone} (they were the controller's zone, UTC, and a
 * MariaDB TIMESTAMP column was nine hours off).
 */
class SessionTimeZoneTest {
    private ServerReplicas replicas;

    @AfterEach
    void stop() {
        if (replicas != null) {
            replicas.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void clockValuesAreTheSessionsLocalTime(String engine) throws Exception {
        replicas = new ServerReplicas(engine, "phalanx_session_zone");
        boolean pg = engine.equals("postgresql");
        ZoneId zone = pg ? ZoneId.of("Pacific/Kiritimati") : ZoneOffset.ofHours(9);
        try (Session s = replicas.requestManager().openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, d DATE, at " + (pg ? "TIMESTAMP" : "DATETIME") + ")");
            update(s, pg ? "SET TIME ZONE 'Pacific/Kiritimati'" : "SET time_zone = '+09:00'");
            LocalDateTime before = LocalDateTime.now(zone).truncatedTo(ChronoUnit.SECONDS);
            update(s, pg ? "INSERT INTO t VALUES (1, CURRENT_DATE, LOCALTIMESTAMP)" : "INSERT INTO t VALUES (1, CURDATE(), NOW())");
            LocalDateTime after = LocalDateTime.now(zone);
            LocalDateTime at = ((java.sql.Timestamp) value(s, "SELECT at FROM t")).toLocalDateTime();
            assertTrue(!at.isBefore(before) && !at.isAfter(after), before + " <= " + at + " <= " + after);
            LocalDate d = ((java.sql.Date) value(s, "SELECT d FROM t")).toLocalDate();
            assertTrue(d.equals(before.toLocalDate()) || d.equals(after.toLocalDate()), d + " in " + zone);
            if (!pg) { // the clock in a number's place, as on MariaDB: 20261129223000
                update(s, "CREATE TABLE n (id INTEGER PRIMARY KEY, v BIGINT)");
                update(s, "INSERT INTO n VALUES (1, NOW() + 0)");
                long v = ((Number) value(s, "SELECT v FROM n")).longValue();
                assertTrue(v / 1_000_000 == d.getYear() * 10_000L + d.getMonthValue() * 100L + d.getDayOfMonth()
                        || v / 1_000_000 == after.getYear() * 10_000L + after.getMonthValue() * 100L + after.getDayOfMonth(),
                        "NOW() + 0 = " + v);
            }
        }
    }
}
