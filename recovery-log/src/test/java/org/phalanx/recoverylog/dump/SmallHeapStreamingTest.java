package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;

/**
 * 100,000 rows (about 30 MB of row data) dumped and restored through all three engines in a JVM
 * with a 64 MB heap (the small-heap surefire execution): neither direction may hold a table in
 * memory — on PostgreSQL and MariaDB that needs the fetch size DdlUtils' own query never sets.
 * Prints the rates it saw.
 */
class SmallHeapStreamingTest {
    private static final int ROWS = 100_000;

    @TempDir
    Path dir;

    @Test
    void aHundredThousandRowsStreamBothWaysThroughEveryEngine() throws Exception {
        long heap = Runtime.getRuntime().maxMemory();
        assertTrue(heap <= 80L << 20, "this test must run with -Xmx64m (the small-heap execution), heap is " + heap);
        Path sqlite = dir.resolve("src.db");
        try (Connection c = Sqlite.create(sqlite,
                "CREATE TABLE big (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER, amount DECIMAL(12,2),"
                        + " name VARCHAR(50), body TEXT, at TIMESTAMP, flag BOOLEAN)",
                "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < " + ROWS + ")"
                        + " INSERT INTO big (n, amount, name, body, at, flag) SELECT i * 7, i / 4.0, 'name ' || i,"
                        + " printf('%.250c', 'x') || i, '2024-01-01 00:00:00.5', i % 2 FROM s")) {
            assertEquals((long) ROWS, Sqlite.single(c, "SELECT COUNT(*) FROM big"));
        }
        List<Object> expected;
        try (Connection c = Sqlite.open(sqlite)) {
            expected = Sqlite.query(c, "SELECT COUNT(*), SUM(n), SUM(LENGTH(body)), SUM(flag) FROM big").get(0);
        }
        try (TestTarget pg = TestTarget.create(Engine.POSTGRESQL, dir, "phalanx_stream_pg");
             TestTarget maria = TestTarget.create(Engine.MARIADB, dir, "phalanx_stream_maria")) {
            Path d1 = dump(Engine.SQLITE, "jdbc:sqlite:" + sqlite, dir.resolve("1.zip"));
            restore(pg, d1);
            Path d2 = dump(Engine.POSTGRESQL, pg.url, dir.resolve("2.zip"));
            restore(maria, d2);
            Path d3 = dump(Engine.MARIADB, maria.url, dir.resolve("3.zip"));
            TestTarget back = TestTarget.create(Engine.SQLITE, dir, "back");
            restore(back, d3);
            try (Connection c = back.connect()) {
                assertEquals(expected, Sqlite.query(c, "SELECT COUNT(*), SUM(n), SUM(LENGTH(body)), SUM(flag) FROM big").get(0));
                assertEquals(List.of(List.of(12345L, 86415L, "name 12345", "2024-01-01 00:00:00.5")),
                        Sqlite.query(c, "SELECT id, n, name, at FROM big WHERE id = 12345"));
            }
            System.out.printf("dump sizes: %d / %d / %d bytes for %d rows%n", Files.size(d1), Files.size(d2),
                    Files.size(d3), ROWS);
        }
    }

    private static Path dump(Engine engine, String url, Path file) throws Exception {
        try (Connection c = org.phalanx.testkit.db.TestDatabases.connect(url)) {
            c.setAutoCommit(false); // the snapshot transaction; PostgreSQL streams only inside one
            long start = System.nanoTime();
            DumpInfo info = new PortableBackuper().backup(c, file, "c", 1, Progress.NONE);
            report("dump   " + engine, info.totalRows(), start);
            c.rollback();
        }
        return file;
    }

    private static void restore(TestTarget target, Path file) throws Exception {
        try (Connection c = target.connect()) {
            long start = System.nanoTime();
            new PortableBackuper().restore(file, c, false, Progress.NONE);
            report("restore " + target.engine, ROWS, start);
        }
    }

    private static void report(String what, long rows, long start) {
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("%-20s %,d rows in %.2f s = %,.0f rows/s (heap %d MB)%n", what, rows, seconds, rows / seconds,
                Runtime.getRuntime().maxMemory() >> 20);
    }
}
