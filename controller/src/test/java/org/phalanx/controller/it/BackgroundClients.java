package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Client threads writing until stopped while a test does something else (takes backends out,
 * kills a controller): each adds the ids of its acknowledged writes; any exception is an error.
 */
final class BackgroundClients implements AutoCloseable {
    /** One client's loop; it runs until {@link BackgroundClients#stopped()}. */
    @FunctionalInterface
    interface Client {
        void run(int client, BackgroundClients clients) throws Exception;
    }

    final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService pool;
    private final List<Future<?>> clients = new ArrayList<>();

    BackgroundClients(int count, Client body) {
        pool = Executors.newFixedThreadPool(count);
        for (int n = 0; n < count; n++) {
            int client = n;
            clients.add(pool.submit(() -> {
                try {
                    body.run(client, this);
                } catch (Throwable e) {
                    errors.add(e);
                }
                return null;
            }));
        }
    }

    /**
     * The write both recovery workloads make: row {@code (id, client, i)} into table t, alone or, in
     * a transaction, with an update of the client's earlier rows.
     */
    static void insertRow(Connection c, PreparedStatement insert, PreparedStatement update, int client, int id, int i,
                          boolean inTransaction) throws SQLException {
        insert.setInt(1, id);
        insert.setInt(2, client);
        insert.setInt(3, i);
        if (!inTransaction) {
            insert.executeUpdate();
            return;
        }
        c.setAutoCommit(false);
        insert.executeUpdate();
        update.setInt(1, client);
        update.setInt(2, id);
        update.executeUpdate();
        c.commit();
        c.setAutoCommit(true);
    }

    boolean stopped() {
        return stop.get();
    }

    /** Waits until the clients have had at least {@code more} further writes acknowledged, without errors. */
    void progress(int more) throws InterruptedException {
        int target = acknowledged.size() + more;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (acknowledged.size() < target && errors.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(errors.isEmpty(), "clients saw errors: " + errors);
        assertTrue(acknowledged.size() >= target, "the workload is stuck at " + acknowledged.size());
    }

    @Override
    public void close() throws Exception {
        stop.set(true);
        for (Future<?> f : clients) {
            f.get(1, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertTrue(errors.isEmpty(), "clients saw errors: " + errors);
    }
}
