package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.GeneratedKeys;

class OutcomeJournalTest {
    @TempDir
    Path dir;

    private static final GeneratedKeys KEYS = new GeneratedKeys(
            List.of(new GeneratedKeys.Column("id", Types.BIGINT, "BIGINT")), List.of(List.of(5L), List.of(6L)));

    @Test
    void aRecordCutShortByACrashIsDroppedAndLaterOnesStayReadable() throws Exception {
        Path file = dir.resolve("request-outcomes");
        try (OutcomeJournal j = new OutcomeJournal(file)) {
            j.append(new OutcomeJournal.Counted(1, 1, null), List::of);
            j.append(new OutcomeJournal.Counted(2, 2, KEYS), List::of);
        }
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(whole, whole.length - 3)); // killed while writing record 2
        try (OutcomeJournal j = new OutcomeJournal(file)) {
            assertEquals(Set.of(1L), j.recalled().keySet());
            j.append(new OutcomeJournal.Counted(3, 3, KEYS), List::of);
        }
        try (OutcomeJournal j = new OutcomeJournal(file)) {
            assertEquals(Set.of(1L, 3L), j.recalled().keySet());
            assertEquals(KEYS, j.recalled().get(3L).keys());
        }
    }

    @Test
    void pastItsBoundTheFileKeepsOnlyWhatIsStillWanted() throws Exception {
        Path file = dir.resolve("request-outcomes");
        try (OutcomeJournal j = new OutcomeJournal(file)) {
            for (int i = 0; i <= OutcomeJournal.REWRITE_AFTER; i++) {
                j.append(new OutcomeJournal.Counted(i, 1, null), () -> List.of(new OutcomeJournal.Counted(7, 7, null)));
            }
        }
        try (OutcomeJournal j = new OutcomeJournal(file)) {
            // rewritten with what was wanted, then the record that crossed the bound appended
            assertEquals(Set.of(7L, (long) OutcomeJournal.REWRITE_AFTER), j.recalled().keySet());
        }
    }
}
