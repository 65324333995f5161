package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dump of the union of several databases' tables (a member replicating partially), each table from one of them. */
class UnionDumpTest {
    @TempDir
    Path dir;

    @Test
    void eachTableIsTakenFromThePartThatNamesItAndTheDumpRestoresAsOne() throws Exception {
        Path dump = dir.resolve("union.zip");
        try (Connection a = Sqlite.create(dir.resolve("a.db"),
                "CREATE TABLE acc (id INTEGER PRIMARY KEY, balance INTEGER)", "INSERT INTO acc VALUES (1, 10), (2, 20)",
                "CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, t TEXT)", "INSERT INTO notes(t) VALUES ('stale')");
             Connection b = Sqlite.create(dir.resolve("b.db"),
                "CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, t TEXT)",
                "INSERT INTO notes(t) VALUES ('x'), ('y'), ('z')")) {
            DumpInfo info = new PortableBackuper().backupUnion(List.of(
                    new PortableBackuper.Part(a, Set.of("ACC")), new PortableBackuper.Part(b, Set.of("notes"))),
                    dump, "group-dump", 42, Progress.NONE);
            assertEquals(42, info.checkpointPosition());
            assertEquals(Set.of(new DumpInfo.TableRows("acc", 2), new DumpInfo.TableRows("notes", 3)),
                    Set.copyOf(info.tables()));
        }
        try (Connection target = Sqlite.create(dir.resolve("t.db"))) {
            Backupers.forFormat(Backupers.verify(dump, Progress.NONE).format()).restore(dump, target, true,
                    Progress.NONE);
            assertEquals(List.of(List.of(1L, 10L), List.of(2L, 20L)), Sqlite.query(target, "SELECT * FROM acc ORDER BY id"));
            assertEquals(List.of(List.of("x"), List.of("y"), List.of("z")),
                    Sqlite.query(target, "SELECT t FROM notes ORDER BY id"), "notes from b, not a's stale copy");
            Sqlite.query(target, "INSERT INTO notes(t) VALUES ('next') RETURNING id").forEach(
                    row -> assertEquals(4L, row.get(0), "b's identity counter carried over"));
        }
    }

    @Test
    void aTableTakenFromTwoPartsIsRefusedAndNothingIsWritten() throws Exception {
        Path dump = dir.resolve("refused.zip");
        try (Connection a = Sqlite.create(dir.resolve("a.db"), "CREATE TABLE acc (id INTEGER PRIMARY KEY)");
             Connection b = Sqlite.create(dir.resolve("b.db"), "CREATE TABLE acc (id INTEGER PRIMARY KEY)")) {
            DumpException e = assertThrows(DumpException.class, () -> new PortableBackuper().backupUnion(List.of(
                    new PortableBackuper.Part(a, null), new PortableBackuper.Part(b, Set.of("acc"))),
                    dump, "group-dump", 1, Progress.NONE));
            assertTrue(e.getMessage().contains("acc"), e.getMessage());
            assertFalse(Files.exists(dump));
        }
    }
}
