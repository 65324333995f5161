package org.phalanx.requestmanager.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;

class SchedulerTest {
    private final SqlAnalyzer analyzer = new SqlAnalyzer(100);
    private final Scheduler scheduler = new Scheduler(new LocalWriteOrdering(), false, Duration.ofSeconds(1));

    /** One table written with and without its schema or database: the writes must still be ordered against each other. */
    @Test
    void aTableWithAndWithoutItsQualifierIsOneResource() {
        for (String sql : new String[] {"UPDATE public.databasechangeloglock SET locked = TRUE WHERE id = 1",
                "UPDATE databasechangeloglock SET locked = FALSE WHERE id = 1",
                "UPDATE vdb.DATABASECHANGELOGLOCK SET LOCKED = 0 WHERE ID = 1",
                "UPDATE \"public\".\"databasechangeloglock\" SET locked = FALSE"}) {
            assertEquals(Set.of("databasechangeloglock"), scheduler.lockResources(analyzer.analyze(sql)).writes(), sql);
        }
        Access insertSelect = scheduler.lockResources(analyzer.analyze("INSERT INTO app.copy SELECT * FROM public.src"));
        assertEquals(Set.of("copy"), insertSelect.writes());
        assertEquals(Set.of("src"), insertSelect.reads());
        assertEquals(Set.of("src"), Set.copyOf(scheduler.readResources(analyzer.analyze("SELECT * FROM public.src"))));
        assertEquals(Set.of("src"), scheduler.readLocks(analyzer.analyze("SELECT * FROM \"public\".src")).reads());
    }
}
