package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;

/** Refusals, damaged dumps, failed restores and progress. */
class PortableRestoreTest {
    @TempDir
    Path dir;
    Path dump;

    @BeforeEach
    void dumpASmallDatabase() throws Exception {
        dump = dir.resolve("d.zip");
        try (Connection c = Sqlite.create(dir.resolve("src.db"),
                "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(5), price DECIMAL(8,2))",
                "CREATE TABLE other (x INTEGER)",
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)"
                        + " INSERT INTO item SELECT i, 'n' || (i % 1000), i * 0.25 FROM n",
                "INSERT INTO other VALUES (1)")) {
            List<long[]> reports = new ArrayList<>();
            DumpInfo info = new PortableBackuper().backup(c, dump, "cp", 9, (done, total, unit) -> {
                assertEquals("rows", unit);
                reports.add(new long[] {done, total});
            });
            assertEquals(List.of(new DumpInfo.TableRows("item", 2500), new DumpInfo.TableRows("other", 1)), info.tables());
            assertEquals(Files.size(dump), info.size());
            assertTrue(reports.size() >= 3, "progress per batch of rows: " + reports.size());
            for (long[] r : reports) {
                assertEquals(2501, r[1]);
                assertTrue(r[0] <= r[1]);
            }
            assertEquals(2501, reports.get(reports.size() - 1)[0], "the last report is complete");
        }
    }

    @Test
    void infoIsReadableBackFromTheFile() throws Exception {
        DumpInfo info = Backupers.readInfo(dump);
        assertEquals("portable", info.format());
        assertEquals("cp", info.checkpointName());
        assertEquals(9, info.checkpointPosition());
        assertEquals(Engine.SQLITE, info.sourceEngine());
        assertEquals(2501, info.totalRows());
        assertEquals(Files.size(dump), info.size());
        assertEquals(info, Backupers.verify(dump, Progress.NONE));
        try (ZipFile zip = new ZipFile(dump.toFile())) {
            assertTrue(zip.getEntry("schema.xml") != null && zip.getEntry("data.xml") != null
                    && zip.getEntry("dump.properties") != null);
        }
        assertTrue(Backupers.forFormat("portable") instanceof PortableBackuper);
    }

    @Test
    void aTargetWhoseTablesHoldDataIsRefusedUnlessForced() throws Exception {
        try (Connection c = Sqlite.create(dir.resolve("dst.db"),
                "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO item VALUES (1, 'mine')",
                "CREATE TABLE unrelated (y INTEGER)", "INSERT INTO unrelated VALUES (7)")) {
            DumpException e = assertThrows(DumpException.class,
                    () -> new PortableBackuper().restore(dump, c, false, Progress.NONE));
            assertTrue(e.getMessage().contains("item (1 rows)") && e.getMessage().contains("force"), e.getMessage());
            assertEquals("mine", Sqlite.single(c, "SELECT name FROM item"), "nothing was changed");

            new PortableBackuper().restore(dump, c, true, Progress.NONE);
            assertEquals(2500L, Sqlite.single(c, "SELECT COUNT(*) FROM item"));
            assertEquals(7L, Sqlite.single(c, "SELECT y FROM unrelated"), "tables not in the dump are left alone");
        }
    }

    @Test
    void emptyTablesOfTheSameNameAreReplacedWithoutForce() throws Exception {
        try (Connection c = Sqlite.create(dir.resolve("dst.db"), "CREATE TABLE item (id INTEGER PRIMARY KEY)")) {
            new PortableBackuper().restore(dump, c, false, Progress.NONE);
            assertEquals(3, Sqlite.query(c, "PRAGMA table_info(item)").size());
        }
    }

    @Test
    void aTruncatedDumpIsReportedBeforeAnythingIsApplied() throws Exception {
        Path cut = dir.resolve("cut.zip");
        Files.copy(dump, cut);
        try (RandomAccessFile f = new RandomAccessFile(cut.toFile(), "rw")) {
            f.setLength(f.length() / 2);
        }
        DumpException info = assertThrows(DumpException.class, () -> Backupers.readInfo(cut));
        assertTrue(info.getMessage().contains("truncated"), info.getMessage());
        try (Connection c = Sqlite.open(dir.resolve("dst.db"))) {
            assertThrows(DumpException.class, () -> new PortableBackuper().restore(cut, c, false, Progress.NONE));
            assertEquals(0L, Sqlite.single(c, "SELECT COUNT(*) FROM sqlite_schema"));
        }
    }

    @Test
    void aCorruptDumpIsReportedBeforeAnythingIsApplied() throws Exception {
        Path bad = dir.resolve("bad.zip");
        Files.copy(dump, bad);
        long offset;
        try (ZipFile zip = new ZipFile(dump.toFile())) {
            // somewhere inside the compressed data of data.xml (entries follow each other, data.xml is second)
            offset = zip.getEntry("schema.xml").getCompressedSize() + zip.getEntry("data.xml").getCompressedSize() / 2 + 100;
        }
        try (RandomAccessFile f = new RandomAccessFile(bad.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0xff);
        }
        Backupers.readInfo(bad); // the directory and info are intact...
        DumpException e = assertThrows(DumpException.class, () -> Backupers.verify(bad, Progress.NONE));
        assertTrue(e.getMessage().contains("damaged") && e.getMessage().contains("data.xml"), e.getMessage());
        try (Connection c = Sqlite.create(dir.resolve("dst.db"), "CREATE TABLE keep (k INTEGER)")) {
            DumpException r = assertThrows(DumpException.class,
                    () -> new PortableBackuper().restore(bad, c, false, Progress.NONE));
            assertTrue(r.getMessage().contains("damaged"), r.getMessage());
            assertEquals(List.of(List.of("keep")), Sqlite.query(c, "SELECT name FROM sqlite_schema"), "nothing applied");
        }
    }

    @Test
    void anInfoThatDoesNotMatchItsEntriesIsDamageToo() throws Exception {
        Path other = dir.resolve("other.zip");
        try (Connection c = Sqlite.create(dir.resolve("o.db"), "CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (1)")) {
            new PortableBackuper().backup(c, other, "x", 1, Progress.NONE);
        }
        Path mixed = dir.resolve("mixed.zip"); // the info of one dump with the data of another
        try (ZipFile a = new ZipFile(dump.toFile()); ZipFile b = new ZipFile(other.toFile());
             var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(mixed))) {
            for (String name : List.of("schema.xml", "data.xml")) {
                out.putNextEntry(new java.util.zip.ZipEntry(name));
                b.getInputStream(b.getEntry(name)).transferTo(out);
            }
            out.putNextEntry(new java.util.zip.ZipEntry("dump.properties"));
            a.getInputStream(a.getEntry("dump.properties")).transferTo(out);
        }
        DumpException e = assertThrows(DumpException.class, () -> Backupers.verify(mixed, Progress.NONE));
        assertTrue(e.getMessage().contains("expected"), e.getMessage());
    }

    @Test
    void aNonDumpIsReported() throws Exception {
        Path text = dir.resolve("text.zip");
        Files.writeString(text, "hello");
        assertThrows(DumpException.class, () -> Backupers.readInfo(text));
        assertThrows(DumpException.class, () -> Backupers.readInfo(dir.resolve("missing.zip")));
    }

    @Test
    void anExistingDumpFileIsNeverOverwritten() throws Exception {
        try (Connection c = Sqlite.open(dir.resolve("src.db"))) {
            DumpException e = assertThrows(DumpException.class,
                    () -> new PortableBackuper().backup(c, dump, "again", 10, Progress.NONE));
            assertTrue(e.getMessage().contains("already exists"), e.getMessage());
        }
        assertEquals("cp", Backupers.readInfo(dump).checkpointName());
    }

    @Test
    void restoreReportsVerificationThenRowsAndKeepsTheAutoCommitMode() throws Exception {
        List<String> units = new ArrayList<>();
        long[] last = new long[2];
        try (Connection c = Sqlite.open(dir.resolve("dst.db"))) {
            c.setAutoCommit(false);
            new PortableBackuper().restore(dump, c, false, (done, total, unit) -> {
                if (units.isEmpty() || !units.get(units.size() - 1).equals(unit)) {
                    units.add(unit);
                }
                if (unit.equals("rows")) {
                    last[0] = done;
                    last[1] = total;
                }
            });
            assertFalse(c.getAutoCommit());
            assertEquals(2500L, Sqlite.single(c, "SELECT COUNT(*) FROM item"));
        }
        assertEquals(List.of("bytes verified", "rows"), units);
        assertEquals(2501, last[0]);
        assertEquals(2501, last[1]);
    }

    /** item.name is VARCHAR(5), which SQLite does not enforce but PostgreSQL and MariaDB do. */
    private Path dumpWithAValueTooLong() throws Exception {
        Path d = dir.resolve("long.zip");
        try (Connection c = Sqlite.create(dir.resolve("long.db"),
                "CREATE TABLE a (id INTEGER PRIMARY KEY)", "INSERT INTO a VALUES (1)",
                "CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(5))",
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)"
                        + " INSERT INTO item SELECT i, CASE WHEN i = 2999 THEN 'far too long' ELSE 'ok' END FROM n")) {
            new PortableBackuper().backup(c, d, "c", 1, Progress.NONE);
        }
        return d;
    }

    @Test
    void aFailedRestoreOnPostgresIsRolledBackWhole() throws Exception {
        Path d = dumpWithAValueTooLong();
        try (TestTarget t = TestTarget.create(Engine.POSTGRESQL, dir, "phalanx_dump_fail")) {
            try (Connection c = t.connect()) {
                c.createStatement().execute("CREATE TABLE a (id INTEGER PRIMARY KEY, keep TEXT)");
                c.createStatement().execute("INSERT INTO a VALUES (42, 'old')");
                DumpException e = assertThrows(DumpException.class,
                        () -> new PortableBackuper().restore(d, c, true, Progress.NONE));
                assertTrue(e.getMessage().contains("rolled back") && e.getMessage().contains("too long"), e.getMessage());
                assertTrue(c.getAutoCommit());
                assertEquals(List.of(List.of(42L, "old")), Sqlite.query(c, "SELECT id, keep FROM a"),
                        "even the table dropped by force is back");
                assertEquals(0L, Sqlite.single(c, "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'item'"));
            }
        }
    }

    @Test
    void aFailedForcedRestoreOnMariaDbLeavesTheTargetAsItWas() throws Exception {
        Path d = dumpWithAValueTooLong();
        try (TestTarget t = TestTarget.create(Engine.MARIADB, dir, "phalanx_dump_fail")) {
            try (Connection c = t.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE a (id INTEGER PRIMARY KEY, keep TEXT)");
                s.execute("INSERT INTO a VALUES (42, 'old')");
                s.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, a_id INTEGER,"
                        + " CONSTRAINT item_a FOREIGN KEY (a_id) REFERENCES a (id))");
                s.execute("INSERT INTO item VALUES (7, 42)");
                DumpException e = assertThrows(DumpException.class,
                        () -> new PortableBackuper().restore(d, c, true, Progress.NONE));
                assertTrue(e.getMessage().contains("the target is as it was") && e.getMessage().contains("too long"),
                        e.getMessage());
                assertTrue(c.getAutoCommit());
                assertEquals(List.of(List.of(42L, "old")), Sqlite.query(c, "SELECT id, keep FROM a"),
                        "the table the forced restore would have replaced is untouched");
                assertEquals(List.of(List.of(7L, 42L)), Sqlite.query(c, "SELECT id, a_id FROM item"));
                assertEquals(List.of(List.of("a"), List.of("item")), Sqlite.query(c, "SELECT TABLE_NAME FROM"
                        + " information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1"), "nothing left behind");
                assertEquals(1L, ((Number) Sqlite.single(c, "SELECT @@SESSION.foreign_key_checks")).longValue(),
                        "session settings are put back");
                assertThrows(java.sql.SQLException.class, () -> s.execute("INSERT INTO item VALUES (8, 99)"),
                        "the old tables keep their foreign key");
            }
        }
    }

    @Test
    void aForcedRestoreOnMariaDbSwapsTheNewTablesIn() throws Exception {
        try (TestTarget t = TestTarget.create(Engine.MARIADB, dir, "phalanx_dump_swap")) {
            try (Connection c = t.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)");
                s.execute("INSERT INTO item VALUES (1, 'old')");
                s.execute("CREATE TABLE outside (id INTEGER PRIMARY KEY, item_id INTEGER,"
                        + " CONSTRAINT outside_item FOREIGN KEY (item_id) REFERENCES item (id))");
                s.execute("INSERT INTO outside VALUES (1, 1)");
                s.execute("CREATE TABLE phalanx_restore_new_7 (x INTEGER)"); // left by a restore that was killed
                new PortableBackuper().restore(dump, c, true, Progress.NONE);
                assertEquals(2500L, Sqlite.single(c, "SELECT COUNT(*) FROM item"));
                assertEquals(1L, Sqlite.single(c, "SELECT COUNT(*) FROM other"));
                assertEquals(List.of(List.of("item"), List.of("other"), List.of("outside")), Sqlite.query(c,
                        "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1"),
                        "the replaced table and the staging tables are gone");
                assertEquals(List.of(List.of(1L, 1L)), Sqlite.query(c, "SELECT id, item_id FROM outside"));
                assertEquals(0L, ((Number) Sqlite.single(c, "SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS"
                        + " WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'outside'")).longValue(),
                        "a foreign key onto a replaced table goes with it, as with PostgreSQL's CASCADE");
                s.execute("INSERT INTO outside VALUES (2, 99999)");
            }
        }
    }

    @Test
    void aFailedForcedRestoreOnSqliteLeavesTheTargetAsItWas() throws Exception {
        Path d = dir.resolve("orphans.zip");
        try (Connection c = Sqlite.create(dir.resolve("orphans.db"), // foreign keys are not enforced by default
                "CREATE TABLE a (id INTEGER PRIMARY KEY)", "INSERT INTO a VALUES (1)",
                "CREATE TABLE item (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a (id))",
                "INSERT INTO item VALUES (1, 1), (2, 404)")) {
            new PortableBackuper().backup(c, d, "c", 1, Progress.NONE);
        }
        try (Connection c = Sqlite.create(dir.resolve("keep.db"), "PRAGMA foreign_keys = ON",
                "CREATE TABLE a (id INTEGER PRIMARY KEY, keep TEXT)", "INSERT INTO a VALUES (42, 'old')")) {
            DumpException e = assertThrows(DumpException.class,
                    () -> new PortableBackuper().restore(d, c, true, Progress.NONE));
            assertTrue(e.getMessage().contains("rolled back, the target is as it was")
                    && e.getMessage().contains("FOREIGN KEY"), e.getMessage());
            assertEquals(List.of(List.of(42L, "old")), Sqlite.query(c, "SELECT id, keep FROM a"));
            assertEquals(List.of(List.of("a")), Sqlite.query(c, "SELECT name FROM sqlite_schema WHERE type = 'table'"));
        }
    }
}
