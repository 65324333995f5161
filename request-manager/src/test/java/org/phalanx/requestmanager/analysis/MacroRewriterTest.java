package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneId;
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
    void leavesLiteralsIdentifiersCommentsAndColumnsAlone() {
        String sql = "UPDATE t SET note = 'NOW() and RAND()', \"now\" = 1, x.now = 2 /* CURRENT_DATE */ -- RANDOM()\n WHERE now = 3";
        assertEquals(sql, rewrite(sql));
    }

    @Test
    void honoursTheConfiguredZone() {
        MacroRewriter paris = new MacroRewriter(ZoneId.of("Europe/Paris"));
        assertEquals("SELECT '2026-11-22 11:15:30.123'", paris.rewrite("SELECT NOW()", now, () -> 0));
    }
}
