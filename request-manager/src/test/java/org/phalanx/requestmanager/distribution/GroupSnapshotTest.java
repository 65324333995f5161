package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.LogEntry;

/** What a member's snapshot of the group's log carries, written and read back. */
class GroupSnapshotTest {
    @TempDir
    Path dir;

    private static final PrimaryRole ROLE = new PrimaryRole(3, "c2", "run-7", "c1");

    @Test
    void aDataMembersSnapshotCarriesTheRoleItsDumpAndTheEntriesAfterItUpToItsPosition() throws Exception {
        Path dump = Files.write(dir.resolve("d.dump"), new byte[] {1, 2, 3, 4});
        List<LogEntry> entries = List.of(
                LogEntry.statement(11, "u", "INSERT INTO t VALUES (1)", List.of(), Set.of("db1")),
                LogEntry.write(12, 5, "u", "UPDATE t SET a = ?", List.of(7L), Set.of("db1")),
                LogEntry.commit(13, 5, "u", Set.of("db1")),
                LogEntry.statement(14, "u", "INSERT INTO t VALUES (2)", List.of(), Set.of("db1")));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GroupSnapshot.write(new DataOutputStream(bytes), ROLE, Map.of("c3-db1", "c2"), 13, 10, dump, entries.iterator());

        GroupSnapshot read = GroupSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(ROLE, read.role());
        assertEquals(Map.of("c3-db1", "c2"), read.holders());
        assertTrue(read.carriesLog());
        assertEquals(13, read.position());
        assertEquals(10, read.from());
        assertArrayEquals(new byte[] {1, 2, 3, 4}, read.dump());
        assertEquals(entries.subList(0, 3), read.entries(), "the entries up to its position, not one beyond");
    }

    @Test
    void withoutADumpItCarriesTheEntriesFromTheLogsStartAndAWitnessesCarriesTheRoleOnly() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            log.append(LogEntry.statement(1, "u", "INSERT INTO t VALUES (1)", List.of(), Set.of("db1")));
            GroupSnapshot.write(new DataOutputStream(bytes), PrimaryRole.NONE, Map.of(), 1, 0, null, log.read(0));
        }
        GroupSnapshot read = GroupSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(PrimaryRole.NONE, read.role());
        assertNull(read.dump());
        assertEquals(1, read.entries().size());

        bytes.reset();
        GroupSnapshot.writeRole(new DataOutputStream(bytes), ROLE, Map.of("c3-db1", "c2"));
        GroupSnapshot witness = GroupSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(ROLE, witness.role());
        assertEquals(Map.of("c3-db1", "c2"), witness.holders());
        assertFalse(witness.carriesLog());
    }
}
