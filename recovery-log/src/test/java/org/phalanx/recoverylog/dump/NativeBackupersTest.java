package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;

/** The engines' own backup paths, with the same DumpInfo, refusal and damage checks as the portable one. */
class NativeBackupersTest {
    @TempDir
    Path dir;

    @Test
    void sqliteOnlineBackupReadsTheCallersSnapshotAndRestoresWhole() throws Exception {
        Path dump = dir.resolve("native.zip");
        List<String> expected;
        try (Connection c = Sqlite.open(dir.resolve("src.db"))) {
            Fixture.create(c, Engine.SQLITE);
            expected = Fixture.readKinds(c, Engine.SQLITE);
            c.setAutoCommit(false);
            Sqlite.query(c, "SELECT COUNT(*) FROM kinds"); // the snapshot transaction is open
            DumpInfo info = new SqliteNativeBackuper().backup(c, dump, "cp", 5, Progress.NONE);
            assertEquals("sqlite-native", info.format());
            assertEquals(5, info.checkpointPosition());
            assertEquals(10, info.totalRows());
            assertTrue(!c.getAutoCommit());
            c.rollback();
        }
        assertEquals("sqlite-native", Backupers.readInfo(dump).format());
        try (Connection c = Sqlite.create(dir.resolve("dst.db"), "CREATE TABLE mine (x INTEGER)", "INSERT INTO mine VALUES (1)")) {
            DumpException e = assertThrows(DumpException.class,
                    () -> new SqliteNativeBackuper().restore(dump, c, false, Progress.NONE));
            assertTrue(e.getMessage().contains("mine (1 rows)"), e.getMessage());
            new SqliteNativeBackuper().restore(dump, c, true, Progress.NONE);
            Fixture.assertSameRows(expected, Fixture.readKinds(c, Engine.SQLITE), "native");
            assertEquals(0L, Sqlite.single(c, "SELECT COUNT(*) FROM sqlite_schema WHERE name = 'mine'"),
                    "a native restore replaces the whole database");
        }
        try (Connection c = Sqlite.open(dir.resolve("pg.db"))) {
            assertThrows(DumpException.class, () -> new PortableBackuper().restore(dump, c, false, Progress.NONE),
                    "a native dump is not a portable one");
        }
    }

    /**
     * The copy a restore reads is a SQLite database of its own; from a backend in WAL mode SQLite
     * gives it "-wal" and "-shm" files too. They went with it, not left in the dump folder for
     * ever (KillDuringRecoveryIT found them).
     */
    @Test
    void aRestoreFromAWalDatabaseLeavesNothingInTheDumpFolder() throws Exception {
        Path dumps = java.nio.file.Files.createDirectories(dir.resolve("dumps"));
        Path dump = dumps.resolve("wal.zip");
        try (Connection c = Sqlite.open(dir.resolve("wal-src.db"))) {
            Sqlite.query(c, "PRAGMA journal_mode=WAL");
            Fixture.create(c, Engine.SQLITE);
            c.setAutoCommit(false);
            Sqlite.query(c, "SELECT COUNT(*) FROM kinds");
            new SqliteNativeBackuper().backup(c, dump, "cp", 5, Progress.NONE);
            c.rollback();
        }
        try (Connection c = Sqlite.open(dir.resolve("wal-dst.db"))) {
            Sqlite.query(c, "PRAGMA journal_mode=WAL");
            new SqliteNativeBackuper().restore(dump, c, true, Progress.NONE);
            try (var listing = java.nio.file.Files.list(dumps)) {
                assertEquals(List.of(dump), listing.toList());
            }
        }
    }

    @Test
    void pgDumpSharesTheSnapshotOfTheCallersTransaction() throws Exception {
        if (!PgDumpBackuper.isInstalled()) {
            System.out.println("SKIPPED: pg_dump/pg_restore are not on the PATH");
            Assumptions.abort("pg_dump/pg_restore are not on the PATH");
        }
        roundTrip(Engine.POSTGRESQL, new PgDumpBackuper());
    }

    @Test
    void mysqldumpRoundTrip() throws Exception {
        if (!MysqlDumpBackuper.isInstalled()) {
            System.out.println("SKIPPED: mysqldump/mysql are not on the PATH");
            Assumptions.abort("mysqldump/mysql are not on the PATH");
        }
        roundTrip(Engine.MARIADB, new MysqlDumpBackuper());
    }

    private void roundTrip(Engine engine, Backuper backuper) throws Exception {
        Path dump = dir.resolve(backuper.format() + ".zip");
        try (TestTarget source = TestTarget.create(engine, dir, "phalanx_native_src");
             TestTarget target = TestTarget.create(engine, dir, "phalanx_native_dst")) {
            List<String> expected;
            try (Connection c = source.connect()) {
                Fixture.create(c, engine);
                expected = Fixture.readKinds(c, engine);
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                DumpInfo info = backuper.backup(c, dump, "cp", 77, Progress.NONE);
                assertEquals(backuper.format(), info.format());
                assertEquals(engine, info.sourceEngine());
                assertEquals(10, info.totalRows());
                c.rollback();
            }
            assertEquals(backuper.format(), Backupers.verify(dump, Progress.NONE).format());
            try (Connection c = target.connect()) {
                backuper.restore(dump, c, false, Progress.NONE);
                Fixture.assertSameRows(expected, Fixture.readKinds(c, engine), backuper.format());
                DumpException e = assertThrows(DumpException.class, () -> backuper.restore(dump, c, false, Progress.NONE));
                assertTrue(e.getMessage().contains("refusing"), e.getMessage());
                backuper.restore(dump, c, true, Progress.NONE);
                Fixture.assertSameRows(expected, Fixture.readKinds(c, engine), backuper.format() + " forced");
            }
        }
    }
}
