package org.phalanx.requestmanager.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementStatisticsTest {
    @Test
    void countsPerTemplateMostRunFirst() {
        StatementStatistics stats = new StatementStatistics();
        stats.forSql("SELECT * FROM t WHERE id = 1").record(100, false, false);
        stats.forSql("SELECT * FROM t WHERE id = 2").record(300, false, true);
        stats.forSql("SELECT * FROM t WHERE id = 2").record(200, true, false);
        stats.forSql("DELETE FROM t").record(50, false, false);

        List<StatementStatistics.Snapshot> top = stats.top(10);
        assertEquals(2, top.size());
        StatementStatistics.Snapshot select = top.get(0);
        assertEquals("SELECT * FROM t WHERE id = ?", select.template());
        assertEquals(3, select.count());
        assertEquals(1, select.errors());
        assertEquals(1, select.cacheHits());
        assertEquals(600, select.totalNanos());
        assertEquals(200, select.meanNanos());
        assertEquals(300, select.maxNanos());
        assertEquals("DELETE FROM t", top.get(1).template());
        assertEquals(1, stats.top(1).size());
    }

    @Test
    void templatesBeyondTheLimitAreCountedTogether() {
        StatementStatistics stats = new StatementStatistics();
        for (int i = 0; i < StatementStatistics.MAX_TEMPLATES; i++) {
            stats.forSql("SELECT c" + i + " FROM t").record(1, false, false);
        }
        StatementStatistics.Counters extra = stats.forSql("SELECT extra FROM t");
        assertSame(extra, stats.forSql("SELECT other_extra FROM t"));
        extra.record(1, false, false);
        extra.record(1, false, false);
        assertEquals(StatementStatistics.OTHER, stats.top(1).get(0).template());
        assertEquals(2, stats.top(1).get(0).count());
    }

    @Test
    void theTextMapStartsOverPastItsLimitAndStillCountsUnderTheSameTemplate() {
        StatementStatistics stats = new StatementStatistics();
        for (int i = 0; i <= StatementStatistics.MAX_TEXTS + 10; i++) {
            stats.forSql("SELECT * FROM t WHERE id = " + i).record(1, false, false);
        }
        assertEquals(StatementStatistics.MAX_TEXTS + 11, stats.top(1).get(0).count());
    }
}
