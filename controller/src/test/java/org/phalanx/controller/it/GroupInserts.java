package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Clients of a distributed virtual database ({@link ControllerGroup}) inserting in auto-commit with
 * generated keys: one row at a time ({@code RETURN_GENERATED_KEYS}), and {@value #ELEMENTS}-row
 * prepared batches that the controller runs element by element (a {@code CURRENT_TIMESTAMP} macro in
 * the statement keeps it from running one as a single transaction), also asking for keys, and
 * {@value #ELEMENTS}-row batches the controller runs as one transaction (all applied or none). A driver
 * that loses its controller asks the next one what became of its request (exactly-once retries): the
 * checks are that every insert a client was answered is there exactly once with the keys it was
 * given, that a batch reported cut short holds exactly the elements it was told were applied, that
 * nothing else is there, and that no client was left not knowing.
 */
final class GroupInserts {
    static final int ELEMENTS = 3;

    private final String url;
    private final int clients;
    /** "client:seq" of each acknowledged single insert, to the key it was given. */
    final Map<String, Long> keyed = new ConcurrentHashMap<>();
    /** "client:seq" of each batch, to the keys of the elements applied (all of them, or those a cut-short batch reported). */
    final Map<String, List<Long>> batched = new ConcurrentHashMap<>();
    /** "client:seq" of each batch run as one transaction that was answered: every element is there. */
    final Set<String> whole = ConcurrentHashMap.newKeySet();
    /** Batches answered cut short (BatchUpdateException): by the checks, exactly their counted elements are there. */
    final Map<String, Integer> cutShort = new ConcurrentHashMap<>();
    final List<String> unknown = Collections.synchronizedList(new ArrayList<>());
    final List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();

    GroupInserts(String url, int clients) {
        this.url = url;
        this.clients = clients;
    }

    static void create(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE keyed (k INTEGER PRIMARY KEY, client INTEGER NOT NULL, seq INTEGER NOT NULL)");
            s.executeUpdate("CREATE TABLE batched (k INTEGER PRIMARY KEY, client INTEGER NOT NULL, seq INTEGER NOT NULL,"
                    + " element INTEGER NOT NULL, at TEXT)");
            s.executeUpdate("CREATE TABLE whole (k INTEGER PRIMARY KEY, client INTEGER NOT NULL, seq INTEGER NOT NULL,"
                    + " element INTEGER NOT NULL)");
        }
    }

    void start() {
        for (int t = 0; t < clients; t++) {
            int client = t;
            Thread thread = new Thread(() -> run(client), "inserts-" + t);
            threads.add(thread);
            thread.start();
        }
    }

    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(120_000);
        }
    }

    private void run(int client) {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement one = c.prepareStatement("INSERT INTO keyed (client, seq) VALUES (?, ?)",
                     Statement.RETURN_GENERATED_KEYS);
             PreparedStatement batch = c.prepareStatement("INSERT INTO batched (client, seq, element, at)"
                     + " VALUES (?, ?, ?, CURRENT_TIMESTAMP)", Statement.RETURN_GENERATED_KEYS);
             PreparedStatement oneTransaction = c.prepareStatement(
                     "INSERT INTO whole (client, seq, element) VALUES (?, ?, ?)")) {
            for (long seq = 1; !stop.get(); seq++) {
                String id = client + ":" + seq;
                try {
                    one.setInt(1, client);
                    one.setLong(2, seq);
                    assertEquals(1, one.executeUpdate(), "one row inserted");
                    keyed.put(id, keys(one).get(0));
                } catch (SQLException e) {
                    failed(id, e);
                }
                try {
                    int[] counts = executeBatch(batch, client, seq);
                    assertEquals(List.of(1, 1, 1), java.util.Arrays.stream(counts).boxed().toList(), "each element's count");
                    batched.put(id, keys(batch));
                } catch (BatchUpdateException e) {
                    if ("08006".equals(e.getSQLState()) && e.getMessage().contains("cut short")
                            && java.util.Arrays.stream(e.getUpdateCounts()).allMatch(n -> n == 1)) {
                        cutShort.put(id, e.getUpdateCounts().length); // each applied element with its count
                    } else {
                        failed(id, e);
                    }
                } catch (SQLException e) {
                    failed(id, e);
                } finally {
                    batch.clearBatch(); // what a failed batch left is not sent with the next
                }
                try {
                    int[] counts = executeBatch(oneTransaction, client, seq);
                    assertEquals(List.of(1, 1, 1), java.util.Arrays.stream(counts).boxed().toList(),
                            "each element's count, also when the driver asked another controller");
                    whole.add(id);
                } catch (SQLException e) {
                    failed(id, e);
                } finally {
                    oneTransaction.clearBatch();
                }
            }
        } catch (SQLException | RuntimeException | AssertionError e) {
            unexpected.add("client " + client + ": " + e);
        }
    }

    /** A batch of {@value #ELEMENTS} rows (client, seq, element). */
    private static int[] executeBatch(PreparedStatement ps, int client, long seq) throws SQLException {
        for (int element = 0; element < ELEMENTS; element++) {
            ps.setInt(1, client);
            ps.setLong(2, seq);
            ps.setInt(3, element);
            ps.addBatch();
        }
        return ps.executeBatch();
    }

    private static List<Long> keys(Statement s) throws SQLException {
        List<Long> keys = new ArrayList<>();
        try (ResultSet rs = s.getGeneratedKeys()) {
            while (rs.next()) {
                keys.add(rs.getLong(1));
            }
        }
        return keys;
    }

    private void failed(String id, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (state.startsWith("08") && (e.getMessage().contains("is unknown") || e.getMessage().contains("not known"))) {
            unknown.add(id + ": " + e.getMessage());
        } else {
            unexpected.add(id + ": " + state + " " + e.getMessage());
        }
    }

    /**
     * Every answered insert is there once with the keys its client was given; a batch cut short
     * holds exactly its reported elements; no row is there that no client was answered for.
     */
    void check(ControllerGroup group) throws SQLException {
        assertEquals(List.of(), unexpected, "unexpected errors" + group.outputs());
        assertEquals(List.of(), unknown, "requests whose outcome the driver could not learn" + group.outputs());
        try (Connection c = DriverManager.getConnection(group.url()); Statement s = c.createStatement()) {
            Map<String, List<Long>> rows = new HashMap<>();
            try (ResultSet rs = s.executeQuery("SELECT client, seq, k FROM keyed ORDER BY k")) {
                while (rs.next()) {
                    rows.computeIfAbsent(rs.getInt(1) + ":" + rs.getLong(2), k -> new ArrayList<>()).add(rs.getLong(3));
                }
            }
            Map<String, List<Long>> expected = new HashMap<>();
            keyed.forEach((id, key) -> expected.put(id, List.of(key)));
            assertEquals(expected, rows, "single inserts: each once, with the key its client was given");

            Map<String, List<Long>> batchRows = new HashMap<>();
            Map<String, List<Integer>> elements = new HashMap<>();
            try (ResultSet rs = s.executeQuery("SELECT client, seq, k, element FROM batched ORDER BY k")) {
                while (rs.next()) {
                    String id = rs.getInt(1) + ":" + rs.getLong(2);
                    batchRows.computeIfAbsent(id, k -> new ArrayList<>()).add(rs.getLong(3));
                    elements.computeIfAbsent(id, k -> new ArrayList<>()).add(rs.getInt(4));
                }
            }
            Map<String, List<Integer>> expectedElements = new HashMap<>();
            batched.keySet().forEach(id -> expectedElements.put(id, List.of(0, 1, 2)));
            cutShort.forEach((id, n) -> expectedElements.put(id, List.of(0, 1, 2).subList(0, n)));
            expectedElements.values().removeIf(List::isEmpty);
            assertEquals(expectedElements, elements, "batches: every element once, a batch cut short only its applied ones");
            for (Map.Entry<String, List<Long>> b : batched.entrySet()) {
                assertEquals(b.getValue(), batchRows.get(b.getKey()), "the keys batch " + b.getKey() + " was given");
            }

            Map<String, List<Integer>> wholeElements = new HashMap<>();
            try (ResultSet rs = s.executeQuery("SELECT client, seq, element FROM whole ORDER BY k")) {
                while (rs.next()) {
                    wholeElements.computeIfAbsent(rs.getInt(1) + ":" + rs.getLong(2), k -> new ArrayList<>()).add(rs.getInt(3));
                }
            }
            Map<String, List<Integer>> expectedWhole = new HashMap<>();
            whole.forEach(id -> expectedWhole.put(id, List.of(0, 1, 2)));
            assertEquals(expectedWhole, wholeElements, "batches run as one transaction: every element once");
        }
        assertTrue(keyed.size() > 50 && batched.size() > 50 && whole.size() > 50, "too few inserts went through: " + summary());
    }

    String summary() {
        return keyed.size() + " single inserts, " + batched.size() + " batches and " + whole.size()
                + " batches run as one transaction answered, " + cutShort.size()
                + " batches cut short (elements applied: " + cutShort.values() + "), " + unknown.size()
                + " unknown outcomes";
    }
}
