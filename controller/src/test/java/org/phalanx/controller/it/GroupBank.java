package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.phalanx.testkit.db.TestDatabases;

/**
 * Clients moving money through a distributed virtual database ({@link ControllerGroup}), each
 * transfer one transaction that also records its id, then a note of it written in auto-commit; and
 * the checks that must hold afterwards: every acknowledged transfer and note present, no note
 * twice, no transfer whose commit was reported rolled back, the total exact, every replica identical.
 * A driver that loses its controller asks the next one whether its commit or auto-commit write was
 * applied (exactly-once retries), so no client is ever left not knowing.
 */
final class GroupBank {
    static final int ACCOUNTS = 50;
    static final long BALANCE = 1_000;

    final String url;
    final int clients;
    final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    final Set<Long> unknown = ConcurrentHashMap.newKeySet();
    final Set<Long> rolledBack = ConcurrentHashMap.newKeySet();
    /** Transfers whose commit was answered 40001: they must not be there. */
    final Set<Long> refusedAtCommit = ConcurrentHashMap.newKeySet();
    /** Notes (auto-commit inserts) acknowledged: each must be there exactly once. */
    final Set<Long> notes = ConcurrentHashMap.newKeySet();
    final List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
    final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    /** Per client, the times between one acknowledged transfer and the next: a failover shows as one long gap. */
    final List<Long> gaps = Collections.synchronizedList(new ArrayList<>());
    /** What each client saw go wrong, and when it recovered: printed with the summary when a client stalled. */
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();

    GroupBank(String url, int clients) {
        this.url = url;
        this.clients = clients;
    }

    /** Creates the accounts through {@code url}. */
    static void create(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE acc (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)");
            s.executeUpdate("CREATE TABLE transfers (id INTEGER PRIMARY KEY, src INTEGER, dst INTEGER, amount INTEGER)");
            s.executeUpdate("CREATE TABLE notes (id INTEGER NOT NULL)"); // no key: a note applied twice shows
            for (int id = 1; id <= ACCOUNTS; id++) {
                s.executeUpdate("INSERT INTO acc VALUES (" + id + ", " + BALANCE + ")");
            }
        }
    }

    void start() {
        for (int t = 0; t < clients; t++) {
            int client = t;
            Thread thread = new Thread(() -> run(client), "bank-" + t);
            threads.add(thread);
            thread.start();
        }
    }

    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(60_000);
        }
    }

    /**
     * Every acknowledged transfer and note is there, once; no transfer reported rolled back is; the
     * total is exact; no client saw an error it should not, nor was left not knowing an outcome.
     */
    void check(ControllerGroup group) throws SQLException {
        assertTrue(unexpected.isEmpty(), "unexpected errors: " + unexpected + group.outputs());
        assertEquals(Set.of(), unknown, "requests whose outcome the driver could not learn" + group.outputs());
        try (Connection c = DriverManager.getConnection(group.url())) {
            assertEquals(ACCOUNTS * BALANCE, one(c, "SELECT SUM(bal) FROM acc"), "the total is exact");
            Set<Long> present = new HashSet<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM transfers")) {
                while (rs.next()) {
                    present.add(rs.getLong(1));
                }
            }
            List<Long> missing = new ArrayList<>(acknowledged);
            missing.removeAll(present);
            assertEquals(List.of(), missing, "acknowledged transfers missing");
            List<Long> resurrected = new ArrayList<>(refusedAtCommit);
            resurrected.retainAll(present);
            assertEquals(List.of(), resurrected, "transfers whose commit was reported rolled back are there");
            List<Long> twice = new ArrayList<>();
            Set<Long> noted = new HashSet<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM notes")) {
                while (rs.next()) {
                    if (!noted.add(rs.getLong(1))) {
                        twice.add(rs.getLong(1));
                    }
                }
            }
            assertEquals(List.of(), twice, "notes applied twice");
            List<Long> notesMissing = new ArrayList<>(notes);
            notesMissing.removeAll(noted);
            assertEquals(List.of(), notesMissing, "acknowledged notes missing");
        }
    }

    /** All replicas of the group hold the same rows, once the followers have caught up. */
    static void assertReplicasIdentical(ControllerGroup group) throws Exception {
        assertReplicasIdentical(group, GroupBank::content);
    }

    /** These databases (read directly with their engines' drivers) hold the same rows, once the followers have caught up. */
    static void assertReplicasIdentical(List<String> urls, ControllerGroup group) throws Exception {
        assertReplicasIdentical(urls, group, GroupBank::content);
    }

    /** What a test reads of a replica to compare it with the others. */
    @FunctionalInterface
    interface Content {
        String of(String url) throws SQLException;
    }

    /** Every replica of the group reads the same by {@code content}, once the followers have caught up. */
    static void assertReplicasIdentical(ControllerGroup group, Content content) throws Exception {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < group.size(); i++) {
            urls.addAll(group.backendUrls(i));
        }
        assertReplicasIdentical(urls, group, content);
    }

    private static void assertReplicasIdentical(List<String> urls, ControllerGroup group, Content content)
            throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<String> contents = List.of();
        while (System.nanoTime() < end) {
            contents = new ArrayList<>();
            for (String url : urls) {
                try {
                    contents.add(content.of(url));
                } catch (SQLException e) {
                    contents.add(url + " unreadable: " + e.getMessage()); // still being restored, say
                }
            }
            if (new HashSet<>(contents).size() == 1) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("replicas differ: " + contents + group.outputsAndThreads());
    }

    /** A replica's rows, read directly with its engine's driver. */
    private static String content(String url) throws SQLException {
        try (Connection c = TestDatabases.connect(url); Statement s = c.createStatement()) {
            StringBuilder b = new StringBuilder();
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(id), SUM(src * 7 + dst * 13 + amount) FROM transfers")) {
                rs.next();
                b.append("transfers ").append(rs.getLong(1)).append('/').append(rs.getLong(2)).append('/')
                        .append(rs.getLong(3));
            }
            StringBuilder balances = new StringBuilder();
            try (ResultSet rs = s.executeQuery("SELECT bal FROM acc ORDER BY id")) {
                while (rs.next()) {
                    balances.append(rs.getLong(1)).append(',');
                }
            }
            return b.append(" balances ").append(Integer.toHexString(balances.toString().hashCode())).toString();
        }
    }

    static double percentile(List<Long> nanos, int p) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            return 0;
        }
        int i = Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1);
        return sorted.get(Math.max(0, i)) / 1e6;
    }

    String summary() {
        return String.format("%d transfers acknowledged, %d unknown outcomes, %d rolled back by a failover, %d notes;"
                        + " transfer latency p50 %.1f ms, p99 %.1f ms; longest a client went without an acknowledged"
                        + " transfer (the failover stall) %.0f ms, p99 of the gaps %.0f ms", acknowledged.size(),
                unknown.size(), rolledBack.size(), notes.size(), percentile(latencies, 50), percentile(latencies, 99),
                percentile(gaps, 100), percentile(gaps, 99))
                + (percentile(gaps, 100) > 5_000 ? "\nwhat the clients saw:\n" + String.join("\n", events) : "");
    }

    private void run(int client) {
        long seq = 0;
        long lastAcknowledged = 0;
        try (Connection c = DriverManager.getConnection(url); Connection a = DriverManager.getConnection(url)) {
            c.setAutoCommit(false); // a, in auto-commit, writes the notes
            while (!stop.get()) {
                long id = client * 1_000_000L + ++seq;
                ThreadLocalRandom r = ThreadLocalRandom.current();
                int src = r.nextInt(1, ACCOUNTS + 1);
                int dst = r.nextInt(1, ACCOUNTS + 1);
                int amount = r.nextInt(1, 10);
                long started = System.nanoTime();
                boolean committing = false;
                try {
                    move(c, src, -amount);
                    move(c, dst, amount);
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO transfers VALUES (?, ?, ?, ?)")) {
                        ps.setLong(1, id);
                        ps.setInt(2, src);
                        ps.setInt(3, dst);
                        ps.setInt(4, amount);
                        ps.executeUpdate();
                    }
                    committing = true;
                    c.commit();
                    acknowledged.add(id);
                    committing = false;
                    try (PreparedStatement ps = a.prepareStatement("INSERT INTO notes VALUES (?)")) {
                        ps.setLong(1, id);
                        ps.executeUpdate();
                    }
                    notes.add(id);
                    long now = System.nanoTime();
                    latencies.add(now - started);
                    if (lastAcknowledged != 0) {
                        gaps.add(now - lastAcknowledged);
                        if (now - lastAcknowledged > 3_000_000_000L) {
                            events.add(java.time.LocalTime.now() + " client " + client + " acknowledged again after "
                                    + (now - lastAcknowledged) / 1_000_000 + " ms");
                        }
                    }
                    lastAcknowledged = now;
                } catch (SQLException e) {
                    rollbackQuietly(c);
                    String state = e.getSQLState() == null ? "" : e.getSQLState();
                    events.add(java.time.LocalTime.now() + " client " + client + " after "
                            + (System.nanoTime() - started) / 1_000_000 + " ms: " + state + " " + e.getMessage());
                    if (state.startsWith("08") && (e.getMessage().contains("is unknown")
                            || e.getMessage().contains("is not known"))) {
                        unknown.add(id); // the driver could not learn whether its commit or note was applied
                    } else if (committing && state.startsWith("40")) {
                        refusedAtCommit.add(id);
                    } else if (state.startsWith("40") || state.startsWith("08")) {
                        rolledBack.add(id);
                    } else {
                        unexpected.add(state + " " + e.getMessage());
                    }
                }
            }
        } catch (SQLException e) {
            unexpected.add("client " + client + " lost its connection: " + e.getSQLState() + " " + e.getMessage());
        }
    }

    private static void move(Connection c, int account, int amount) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE acc SET bal = bal + ? WHERE id = ?")) {
            ps.setInt(1, amount);
            ps.setInt(2, account);
            ps.executeUpdate();
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the failover already ended the transaction
        }
    }
}
