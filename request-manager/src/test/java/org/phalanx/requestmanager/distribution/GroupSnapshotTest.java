package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.requestmanager.api.RequestId.Units.ONE;

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
import org.phalanx.requestmanager.api.RequestId;

/** What a member's snapshot of the group's log carries, written and read back. */
class GroupSnapshotTest {
    @TempDir
    Path dir;

    private static final PrimaryRole ROLE = new PrimaryRole(3, "c2", "run-7", "c1");
    /** c3's backend held by c2, and c1 back and following: what a give-back to c1 needs to know. */
    private static final BackendHolders.State HOLDERS = new BackendHolders.State(Map.of("c3-db1", "c2"), Set.of("c1"));

    @Test
    void aDataMembersSnapshotCarriesTheRoleItsDumpAndTheEntriesAfterItUpToItsPosition() throws Exception {
        Path dump = Files.write(dir.resolve("d.dump"), new byte[] {1, 2, 3, 4});
        List<LogEntry> entries = List.of(
                LogEntry.statement(11, "u", "INSERT INTO t VALUES (1)", List.of(), Set.of("db1")),
                LogEntry.write(12, 5, "u", "UPDATE t SET a = ?", List.of(7L), Set.of("db1")),
                LogEntry.commit(13, 5, "u", Set.of("db1")),
                LogEntry.statement(14, "u", "INSERT INTO t VALUES (2)", List.of(), Set.of("db1")));
        RememberedRequests remembered = new RememberedRequests(0, List.of(new RememberedRequests.Request(
                new RequestId("s", 4), 1_700_000_000_000L, List.of(new RememberedRequests.Unit(9, 2, false, null, false)))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GroupSnapshot.write(new DataOutputStream(bytes), ROLE, HOLDERS, 13, 10, dump, entries.iterator(), remembered);

        GroupSnapshot read = GroupSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(ROLE, read.role());
        assertEquals(HOLDERS, read.holders());
        assertTrue(read.carriesLog());
        assertEquals(13, read.position());
        assertEquals(10, read.from());
        assertArrayEquals(new byte[] {1, 2, 3, 4}, read.dump());
        assertEquals(entries.subList(0, 3), read.entries(), "the entries up to its position, not one beyond");
        assertEquals(remembered, read.remembered(), "the requests its writer remembered up to its dump");
    }

    @Test
    void withoutADumpItCarriesTheEntriesFromTheLogsStartAndAWitnessesCarriesTheRoleOnly() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            log.append(LogEntry.statement(1, "u", "INSERT INTO t VALUES (1)", List.of(), Set.of("db1")));
            GroupSnapshot.write(new DataOutputStream(bytes), PrimaryRole.NONE, BackendHolders.State.NONE, 1, 0, null, log.read(0),
                    new RememberedRequests(0, List.of()));
        }
        GroupSnapshot read = GroupSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(PrimaryRole.NONE, read.role());
        assertNull(read.dump());
        assertEquals(1, read.entries().size());

        bytes.reset();
        GroupSnapshot.writeRole(new DataOutputStream(bytes), ROLE, HOLDERS);
        GroupSnapshot witness = GroupSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(ROLE, witness.role());
        assertEquals(HOLDERS, witness.holders(), "a witness's snapshot carries the holders too");
        assertFalse(witness.carriesLog());
    }

    @Test
    void aSnapshotOfTheFirstVersionIsReadWithNoMemberFollowing() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1); // as written before give-backs: the role, the holders, no members following
        out.writeLong(ROLE.epoch());
        out.writeUTF(ROLE.member());
        out.writeUTF(ROLE.run());
        out.writeUTF(ROLE.resigned());
        out.writeInt(1);
        out.writeUTF("c3-db1");
        out.writeUTF("c2");
        out.writeLong(-1);
        GroupSnapshot read = GroupSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(ROLE, read.role());
        assertEquals(new BackendHolders.State(Map.of("c3-db1", "c2"), Set.of()), read.holders());
    }

    @Test
    void aSnapshotOfTheSecondVersionIsReadWithNoRequestsRemembered() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(2); // as written before snapshots carried the requests remembered
        out.writeLong(ROLE.epoch());
        out.writeUTF(ROLE.member());
        out.writeUTF(ROLE.run());
        out.writeUTF(ROLE.resigned());
        out.writeInt(0);
        out.writeInt(0);
        out.writeLong(5); // its position
        out.writeLong(0); // from the log's start
        out.writeInt(-1); // no dump
        byte[] entry = org.phalanx.recoverylog.EntryBytes.encode(
                LogEntry.statement(5, "u", "INSERT INTO t VALUES (1)", List.of(), Set.of("db1")));
        out.writeInt(entry.length);
        out.write(entry);
        out.writeInt(-1);
        GroupSnapshot read = GroupSnapshot.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(1, read.entries().size());
        assertNull(read.remembered(), "none: its reader treats what the dump replaced as unknown");
    }
}
