package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Set;
import org.phalanx.engine.Engine;
import org.junit.jupiter.api.Test;

class MacroRewriterTest {
    private final MacroRewriter rewriter = new MacroRewriter(ZoneId.of("UTC"));
    private final Instant now = Instant.parse("2026-11-22T10:15:30.123Z");

    private String rewrite(String sql) {
        return rewriter.rewrite(sql, now, () -> 0.25);
    }

    @Test
    void replacesEveryMacroWithOneValue() {
        assertEquals("INSERT INTO t VALUES ('2026-11-22 10:15:30.123', '2026-11-22 10:15:30.123', '2026-11-22', '10:15:30', 0.25, 0.25)",
                rewrite("INSERT INTO t VALUES (NOW(), current_timestamp, CURRENT_DATE, CURRENT_TIME, RAND(), random ( ))"));
    }

    @Test
    void givesPostgresTypedLiteralsWithTheirOffset() {
        MacroRewriter paris = new MacroRewriter(ZoneId.of("Europe/Paris"));
        assertEquals("DELETE FROM t WHERE ts < TIMESTAMP WITH TIME ZONE '2026-11-22 11:15:30.123000+01:00' - interval '1 day'"
                        + " AND d < DATE '2026-11-22' AND l < TIMESTAMP '2026-11-22 11:15:30.12' AND r < CAST(0.25 AS DOUBLE PRECISION)",
                paris.rewrite("DELETE FROM t WHERE ts < now() - interval '1 day' AND d < CURRENT_DATE"
                        + " AND l < LOCALTIMESTAMP(2) AND r < random()", now, () -> 0.25, Set.of(Engine.POSTGRESQL)));
    }

    @Test
    void givesSqliteDateFunctionsTheTimeChosenForNow() {
        assertEquals("INSERT INTO t VALUES (julianday('2026-11-22 10:15:30.123'), strftime('%Y-%m-%d %H:%M:%f',"
                        + " '2026-11-22 10:15:30.123'), datetime( '2026-11-22 10:15:30.123', 'subsec'), 'now')",
                new MacroRewriter(ZoneId.of("Europe/Paris")).rewrite("INSERT INTO t VALUES (julianday('now'),"
                        + " strftime('%Y-%m-%d %H:%M:%f', 'now'), datetime( 'NOW', 'subsec'), 'now')", now, () -> 0.25,
                        Set.of(Engine.SQLITE)));
        assertTrue(MacroRewriter.containsMacro("UPDATE t SET at = julianday('now')"));
        // SQLite's random() is a 64-bit integer, not a fraction: abs(random()) % 1000 must vary
        assertEquals("UPDATE t SET n = abs(4611686018427387904) % 1000", // 0.75 of the way from MIN to MAX
                rewriter.rewrite("UPDATE t SET n = abs(random()) % 1000", now, () -> 0.75, Set.of(Engine.SQLITE)));
    }

    @Test
    void leavesLiteralsIdentifiersCommentsAndColumnsAlone() {
        String sql = "UPDATE t SET note = 'NOW() and RAND()', \"now\" = 1, x.now = 2 /* CURRENT_DATE */ -- RANDOM()\n WHERE now = 3";
        assertEquals(sql, rewrite(sql));
    }

    @Test
    void theSystemCatalogsQualifiedFunctionsAreMacrosToo() {
        assertEquals("INSERT INTO t VALUES ('2026-11-22 10:15:30.123', x.now, pg_catalog.other())",
                rewrite("INSERT INTO t VALUES (pg_catalog.now(), x.now, pg_catalog.other())"));
    }

    @Test
    void honoursTheConfiguredZone() {
        MacroRewriter paris = new MacroRewriter(ZoneId.of("Europe/Paris"));
        assertEquals("SELECT '2026-11-22 11:15:30.123'", paris.rewrite("SELECT NOW()", now, () -> 0));
    }

    @Test
    void theEnginesOtherClocksAreChosenOnceToo() {
        MacroRewriter paris = new MacroRewriter(ZoneId.of("Europe/Paris"));
        assertEquals("INSERT INTO t VALUES ('2026-11-22 11:15:30.123', '2026-11-22 11:15:30.123', '2026-11-22 11:15:30.123',"
                        + " '2026-11-22 11:15:30.123', '2026-11-22', '11:15:30')",
                paris.rewrite("INSERT INTO t VALUES (clock_timestamp(), STATEMENT_TIMESTAMP(), transaction_timestamp(),"
                        + " SYSDATE(), CURDATE(), curtime())", now, () -> 0));
        assertEquals("UPDATE t SET at = '2026-11-22 10:15:30.123', d = '2026-11-22', t = '10:15:30', s = 1795342530,"
                        + " u = UNIX_TIMESTAMP(created)",
                paris.rewrite("UPDATE t SET at = UTC_TIMESTAMP(), d = utc_date(), t = UTC_TIME(), s = UNIX_TIMESTAMP(),"
                        + " u = UNIX_TIMESTAMP(created)", now, () -> 0));
        assertEquals("INSERT INTO t VALUES ('2026-11-22 10:15:30.123000', '2026-11-22 10:15:30.123', '2026-11-22 10:15:30',"
                        + " '10:15:30.1', '2026-11-22 10:15:30.12')",
                rewrite("INSERT INTO t VALUES (NOW(6), CURRENT_TIMESTAMP( 3 ), LOCALTIMESTAMP(0), CURRENT_TIME(1), SYSDATE(2))"));
        String columns = "UPDATE t SET sysdate = 1, curdate = 2, utc_date = 3 WHERE curtime = 4"; // named like them, not called
        assertEquals(columns, paris.rewrite(columns, now, () -> 0));
    }

    /** MariaDB's NOW() and SQLite's CURRENT_TIMESTAMP are whole seconds; a precision gives its digits. */
    @Test
    void mariaDbAndSqliteTimeStampsHaveTheirEnginesPrecision() {
        assertEquals("INSERT INTO t VALUES (TIMESTAMP'2026-11-22 10:15:30', TIMESTAMP'2026-11-22 10:15:30.123000' + 0,"
                        + " TIME'10:15:30', DATE'2026-11-22' + 1, 1795342530)",
                rewriter.rewrite("INSERT INTO t VALUES (NOW(), NOW(6) + 0, CURTIME(), CURDATE() + 1, UNIX_TIMESTAMP())", now,
                        () -> 0, Set.of(Engine.MARIADB)), "typed literals: a number in NOW() + 0, as the clock is");
        assertEquals("INSERT INTO t VALUES ('2026-11-22 10:15:30')",
                rewriter.rewrite("INSERT INTO t VALUES (CURRENT_TIMESTAMP)", now, () -> 0, Set.of(Engine.SQLITE)));
        assertEquals("SELECT TIMESTAMP'2026-11-22 19:15:30'", rewriter.inZone(java.time.ZoneOffset.ofHours(9))
                .rewrite("SELECT NOW()", now, () -> 0, Set.of(Engine.MARIADB)), "in a session's own zone");
    }
}
