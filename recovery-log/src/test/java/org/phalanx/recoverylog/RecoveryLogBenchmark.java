package org.phalanx.recoverylog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.phalanx.recoverylog.dump.Backuper;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.recoverylog.dump.PortableBackuper;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.recoverylog.dump.SqliteNativeBackuper;
import org.phalanx.testkit.db.DatabaseServer;
import org.phalanx.testkit.db.TestDatabases;

/**
 * Not a test: measures log append and read rates of each store, and dump/restore rates, and
 * prints them (recovery-log/README.md says how to run it). Arguments: {@code log [entries]} or
 * {@code dump [rows]}; default both.
 */
public final class RecoveryLogBenchmark {
    private RecoveryLogBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String what = args.length > 0 ? args[0] : "all";
        Path dir = Files.createTempDirectory("phalanx-bench");
        if (what.equals("all") || what.equals("log")) {
            int entries = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
            for (int threads : new int[] {1, 16}) {
                int n = threads == 1 ? Math.min(entries, 2_000) : entries;
                bench("file", threads, n, () -> new FileRecoveryLog(dir.resolve("file-" + threads + "-" + System.nanoTime())));
                bench("jdbc sqlite", threads, n, () -> new JdbcRecoveryLog("jdbc:sqlite:"
                        + dir.resolve("log-" + threads + "-" + System.nanoTime() + ".db"), null, null, "rlog_"));
                String pg = postgres("phalanx_rlog_bench");
                bench("jdbc postgresql", threads, n, () -> new JdbcRecoveryLog(pg, "postgres", "", "b" + System.nanoTime() + "_"));
                String maria = mariadb("phalanx_rlog_bench");
                bench("jdbc mariadb", threads, n, () -> new JdbcRecoveryLog(maria, "root", "", "b" + System.nanoTime() + "_"));
            }
            drop("phalanx_rlog_bench");
        }
        if (what.equals("all") || what.equals("dump")) {
            int rows = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
            dumps(dir, rows);
        }
    }

    private interface Opener {
        RecoveryLog open() throws Exception;
    }

    private static void bench(String name, int threads, int entries, Opener opener) throws Exception {
        try (RecoveryLog log = opener.open()) {
            Object order = new Object();
            long[] next = {0};
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            long start = System.nanoTime();
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    while (true) {
                        CompletableFuture<Void> durable;
                        synchronized (order) {
                            if (next[0] == entries) {
                                return null;
                            }
                            long p = ++next[0];
                            durable = log.appendAsync(LogEntry.statement(p, "bench",
                                    "INSERT INTO items (id, name, price) VALUES (?, ?, ?)",
                                    List.of(p, "item " + p, new java.math.BigDecimal("9.99")), Set.of("db1", "db2")));
                        }
                        durable.join();
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            pool.shutdown();
            AppendStatistics stats = log.appendStatistics();
            long readStart = System.nanoTime();
            long read = 0;
            try (CloseableIterator<LogEntry> it = log.read(0)) {
                while (it.hasNext()) {
                    it.next();
                    read++;
                }
            }
            double readSeconds = (System.nanoTime() - readStart) / 1e9;
            System.out.printf("%-16s %2d threads: %,7d appends in %6.2f s = %,8.0f appends/s, %,6d group commits"
                            + " (%.1f entries each); read back %,.0f entries/s%n", name, threads, entries, seconds,
                    entries / seconds, stats.groupCommits(), (double) stats.entries() / stats.groupCommits(),
                    read / readSeconds);
        }
    }

    private static void dumps(Path dir, int rows) throws Exception {
        Path db = dir.resolve("dump-src.db");
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER, price DECIMAL(12,2),"
                    + " name VARCHAR(50), body TEXT, at TIMESTAMP, flag BOOLEAN)");
            s.execute("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < " + rows + ")"
                    + " INSERT INTO items (n, price, name, body, at, flag) SELECT i * 7, i / 4.0, 'name ' || i,"
                    + " printf('%.100c', 'x') || i, '2024-01-01 12:00:00.5', i % 2 FROM s");
        }
        for (Backuper b : List.of(new PortableBackuper(), new SqliteNativeBackuper())) {
            for (int round = 1; round <= 2; round++) { // the first round includes JIT warm-up
                Path dump = dir.resolve(b.format() + round + ".zip");
                DumpInfo info;
                long start = System.nanoTime();
                try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db)) {
                    c.setAutoCommit(false);
                    info = b.backup(c, dump, "bench", 1, Progress.NONE);
                }
                double d = (System.nanoTime() - start) / 1e9;
                start = System.nanoTime();
                try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(b.format() + round + ".db"))) {
                    b.restore(dump, c, false, Progress.NONE);
                }
                double r = (System.nanoTime() - start) / 1e9;
                System.out.printf("%-14s round %d, SQLite -> SQLite, %,d rows (%,d bytes): dump %,.0f rows/s, restore %,.0f rows/s%n",
                        b.format(), round, rows, info.size(), rows / d, rows / r);
            }
        }
        Path dump = dir.resolve("portable1.zip");
        String pg = postgres("phalanx_dump_bench");
        String maria = mariadb("phalanx_dump_bench");
        for (String url : List.of(pg, maria)) {
            long start = System.nanoTime();
            try (Connection c = TestDatabases.connect(url)) {
                new PortableBackuper().restore(dump, c, false, Progress.NONE);
            }
            double r = (System.nanoTime() - start) / 1e9;
            start = System.nanoTime();
            Path back = dir.resolve("back" + System.nanoTime() + ".zip");
            try (Connection c = TestDatabases.connect(url)) {
                c.setAutoCommit(false);
                new PortableBackuper().backup(c, back, "bench", 1, Progress.NONE);
            }
            double d = (System.nanoTime() - start) / 1e9;
            System.out.printf("portable       %s: restore %,.0f rows/s, dump %,.0f rows/s%n",
                    DatabaseServer.POSTGRESQL.serves(url) ? "PostgreSQL" : "MariaDB", rows / r, rows / d);
        }
        drop("phalanx_dump_bench");
    }

    /** A database of this name on PostgreSQL, created afresh (no JUnit here: a server that is down fails the run). */
    private static String postgres(String name) throws Exception {
        return DatabaseServer.POSTGRESQL.create(name);
    }

    private static String mariadb(String name) throws Exception {
        return DatabaseServer.MARIADB.create(name, TestDatabases.MARIADB_BINARY_COLLATION);
    }

    private static void drop(String name) {
        DatabaseServer.POSTGRESQL.drop(name);
        DatabaseServer.MARIADB.drop(name);
    }
}
