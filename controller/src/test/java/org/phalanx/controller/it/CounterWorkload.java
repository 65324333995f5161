package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.phalanx.testkit.db.SqliteFiles;

/**
 * The crash tests' workload and its ledger. Clients each count in their own row of
 * {@code counters} and, in transactions, in a shared row 0 plus an item of {@code items}; a
 * quarter of the transactions roll back (+1000 and a negative item, never to be seen). The ledger
 * counts what was acknowledged; the one request of each client that a kill interrupts is "in
 * doubt": it may or may not have happened, but at most once. {@link #checkAndSettle} checks a
 * backend against the ledger and then takes what it found as the truth, so the workload can run
 * again, against a restarted controller, with exact accounting.
 */
final class CounterWorkload {
    private final int clients;
    private final long[] acknowledged;
    private final long[] inDoubt;
    private final Set<Integer> items = ConcurrentHashMap.newKeySet();
    private final Set<Integer> itemsInDoubt = ConcurrentHashMap.newKeySet();
    /** Each client's next item number, across runs, so item ids never repeat. */
    private final AtomicInteger[] next;
    private int runs;

    CounterWorkload(int clients) {
        this.clients = clients;
        this.acknowledged = new long[clients + 1];
        this.inDoubt = new long[clients + 1];
        this.next = new AtomicInteger[clients + 1];
        for (int i = 0; i <= clients; i++) {
            next[i] = new AtomicInteger();
        }
    }

    /** Creates {@code counters} (a row per client and the shared row 0, all 0) and {@code items}. */
    void createTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
            s.executeUpdate("CREATE TABLE items (id INTEGER PRIMARY KEY, client INTEGER NOT NULL)");
            for (int id = 0; id <= clients; id++) {
                s.executeUpdate("INSERT INTO counters VALUES (" + id + ", 0)");
            }
        }
    }

    /** Increments acknowledged outside the workload (e.g. a test's own {@code n = n + 1} on a counter). */
    synchronized void acknowledge(int counter, long n) {
        acknowledged[counter] += n;
    }

    synchronized long acknowledged(int counter) {
        return acknowledged[counter];
    }

    /** Starts the clients; they run until {@link Run#stop()} or {@link Run#killing()}. */
    Run start(ConnectionSource source) {
        return new Run(source, runs++);
    }

    /** One run of the clients, against one controller. */
    final class Run {
        /** Requests answered so far in this run. */
        final AtomicLong done = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final ExecutorService pool = Executors.newFixedThreadPool(clients);
        private final List<Future<?>> futures = new ArrayList<>();

        private Run(ConnectionSource source, int run) {
            for (int n = 1; n <= clients; n++) {
                int client = n;
                futures.add(pool.submit(() -> client(source, client, new Random(run * 1000L + client))));
            }
        }

        private Void client(ConnectionSource source, int client, Random random) throws SQLException {
            try (Connection c = source.connect();
                 PreparedStatement add = c.prepareStatement("UPDATE counters SET n = n + ? WHERE id = ?");
                 PreparedStatement item = c.prepareStatement("INSERT INTO items VALUES (?, ?)")) {
                while (!stop.get()) {
                    int id = client * 1_000_000 + next[client].getAndIncrement();
                    int kind = random.nextInt(4);
                    // what this request adds if it happens: own counter, shared counter, item
                    long own = kind == 3 ? 0 : 1;
                    long shared = kind == 2 ? 1 : 0;
                    synchronized (CounterWorkload.this) {
                        inDoubt[client] += own;
                        inDoubt[0] += shared;
                    }
                    if (kind == 2) {
                        itemsInDoubt.add(id);
                    }
                    if (kind < 2) {
                        add.setInt(1, 1);
                        add.setInt(2, client);
                        add.executeUpdate();
                    } else {
                        c.setAutoCommit(false);
                        item.setInt(1, kind == 2 ? id : -id);
                        item.setInt(2, client);
                        item.executeUpdate();
                        add.setInt(1, kind == 2 ? 1 : 1000);
                        add.setInt(2, client);
                        add.executeUpdate();
                        if (kind == 2) {
                            add.setInt(1, 1);
                            add.setInt(2, 0);
                            add.executeUpdate();
                            c.commit();
                        } else {
                            c.rollback();
                        }
                        c.setAutoCommit(true);
                    }
                    synchronized (CounterWorkload.this) {
                        inDoubt[client] -= own;
                        inDoubt[0] -= shared;
                        acknowledged[client] += own;
                        acknowledged[0] += shared;
                    }
                    if (kind == 2) {
                        items.add(id);
                        itemsInDoubt.remove(id);
                    }
                    done.incrementAndGet();
                    Thread.sleep(2);
                }
            } catch (SQLException killed) {
                if (!stop.get()) {
                    throw killed;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }

        /**
         * Waits until {@code more} further requests were answered; fails if a client failed
         * meanwhile (a client's error is a test failure unless the controller is being killed).
         */
        void awaitProgress(long more, Supplier<String> diagnostics) throws Exception {
            long target = done.get() + more;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (done.get() < target) {
                for (Future<?> f : futures) {
                    if (f.isDone()) {
                        f.get(); // throws the client's failure
                        throw new AssertionError("a client stopped by itself: " + diagnostics.get());
                    }
                }
                assertTrue(System.nanoTime() < deadline, "the workload is stuck at " + done.get() + " requests: "
                        + diagnostics.get());
                Thread.sleep(5);
            }
        }

        /** The controller is about to die: the requests in progress are in doubt from now on. */
        void killing() {
            stop.set(true);
        }

        /** Waits for every client to end; throws the first client's failure. */
        void awaitClients() throws Exception {
            stop.set(true);
            try {
                for (Future<?> f : futures) {
                    f.get(2, TimeUnit.MINUTES);
                }
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            } finally {
                pool.shutdownNow();
            }
        }

        /** Stops the clients: each finishes its request, so nothing is left in doubt. */
        void stop() throws Exception {
            awaitClients();
        }
    }

    /**
     * Checks a backend file against the ledger: every counter holds its acknowledged increments and
     * at most the ones in doubt, every acknowledged item is there, and nothing else (no item of a
     * rolled-back transaction, none never sent). Then what the backend holds is taken as the
     * truth: the requests in doubt are settled.
     */
    synchronized void checkAndSettle(SqliteFiles files, String backend, String when) throws SQLException {
        long[] counters = new long[clients + 1];
        try (Connection c = files.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, n FROM counters")) {
            while (rs.next()) {
                counters[rs.getInt(1)] = rs.getLong(2);
            }
        }
        for (int id = 0; id <= clients; id++) {
            long low = acknowledged[id];
            long high = low + inDoubt[id];
            assertTrue(counters[id] >= low && counters[id] <= high, when + ": counter " + id + " is " + counters[id]
                    + " on " + backend + ": acknowledged increments " + low + ", in doubt " + inDoubt[id]);
        }
        Set<Integer> present = new HashSet<>();
        try (Connection c = files.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM items")) {
            while (rs.next()) {
                present.add(rs.getInt(1));
            }
        }
        Set<Integer> missing = new HashSet<>(items);
        missing.removeAll(present);
        assertEquals(Set.of(), missing, when + ": acknowledged items missing on " + backend);
        Set<Integer> unexpected = new HashSet<>(present);
        unexpected.removeAll(items);
        unexpected.removeAll(itemsInDoubt);
        assertEquals(Set.of(), unexpected, when + ": items of rolled-back transactions, or never sent, on " + backend);
        for (int id = 0; id <= clients; id++) {
            acknowledged[id] = counters[id];
            inDoubt[id] = 0;
        }
        for (Integer id : itemsInDoubt) {
            if (present.contains(id)) {
                items.add(id);
            }
        }
        itemsInDoubt.clear();
    }

    /** Settled: nothing in doubt any more. For the test's own checks, the transactions committed so far. */
    synchronized long committedTransactions() {
        return acknowledged[0];
    }
}
