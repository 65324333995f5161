package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.testkit.jdbc.FaultyDriver;

/** Done-when 5: a backend whose connections break mid-workload is disabled; clients see no error. */
class BackendFailureIT {
    @TempDir
    Path dir;

    @Test
    void aFailingBackendIsDisabledAndClientsDoNotNotice() throws Exception {
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicInteger reads = new AtomicInteger();
        try (PhalanxCluster cluster = new PhalanxCluster(dir, "first", "b1", "b2", "b3")) {
            try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, client INTEGER, v INTEGER)");
            }
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<?>> futures = new ArrayList<>();
            for (int client = 0; client < 8; client++) {
                int id = client;
                futures.add(pool.submit(() -> {
                    try (Connection c = cluster.connect();
                         PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)");
                         PreparedStatement read = c.prepareStatement("SELECT COUNT(*) FROM t WHERE client = ?")) {
                        for (int i = 0; !stop.get() && i < 10_000; i++) {
                            if (id % 2 == 0) {
                                insert.setInt(1, id * 100_000 + i);
                                insert.setInt(2, id);
                                insert.setInt(3, i);
                                insert.executeUpdate();
                            }
                            read.setInt(1, id);
                            try (ResultSet rs = read.executeQuery()) {
                                rs.next();
                                reads.incrementAndGet();
                            }
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                    return null;
                }));
            }
            Thread.sleep(500);
            FaultyDriver.fault("b2").broken = true;
            Thread.sleep(1000);
            stop.set(true);
            for (Future<?> f : futures) {
                f.get(1, TimeUnit.MINUTES);
            }
            pool.shutdown();
            Map<String, BackendState> states = cluster.controller.backendStates("vdb");
            assertEquals(BackendState.DISABLED, states.get("b2"));
            assertEquals(BackendState.ENABLED, states.get("b1"));
            assertEquals(BackendState.ENABLED, states.get("b3"));
        }
        assertTrue(errors.isEmpty(), "clients saw errors: " + errors);
        assertTrue(reads.get() > 100);
        PhalanxClusterChecks.identical(dir, List.of("b1", "b3"), "t", "id");
    }
}
