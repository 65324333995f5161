package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.api.RequestOutcome;

class LocalLogCopyTest {
    @TempDir
    Path dir;

    @Test
    void anotherMembersEntryAppliesToAllOfThisMembersBackendsAndItsOwnStaysAsSent() throws Exception {
        RequestOutcomes outcomes = new RequestOutcomes(Duration.ofMinutes(1));
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            LocalLogCopy copy = new LocalLogCopy(log, EntryPlacement.everywhere(Set.of("c2-db1", "c2-db2")), outcomes);
            // the primary c1 had one of its backends disabled: its entry names the other only
            copy.hand(LogEntry.statement(1, "u", "INSERT INTO t VALUES (1)", List.of(), Set.of("c1-db1"))
                    .withRequestId("s:1"), false);
            copy.hand(LogEntry.statement(2, "u", "INSERT INTO t VALUES (2)", List.of(), Set.of("c2-db1")), true);
            copy.hand(LogEntry.failed(3, 2, "u"), false);
            copy.hand(LogEntry.statement(1, "u", "INSERT INTO t VALUES (1)", List.of(), Set.of("c1-db1")), false);
            assertEquals(true, copy.settle());
            List<Set<String>> sentTo = new ArrayList<>();
            try (CloseableIterator<LogEntry> entries = copy.local().read(0)) {
                entries.forEachRemaining(e -> sentTo.add(e.backends()));
            }
            assertEquals(List.of(Set.of("c2-db1", "c2-db2"), Set.of("c2-db1"), Set.of()), sentTo,
                    "another member's entry goes to all of ours; our own as sent; a replayed one is not copied twice");
            copy.local().counted(1, 1, null);
            assertEquals(new RequestOutcome.Applied(1), outcomes.outcome("s", 1, 10), "counts reach the outcomes");
        }
    }
}
