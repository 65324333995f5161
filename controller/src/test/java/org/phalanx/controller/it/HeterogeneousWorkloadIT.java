package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.api.BackendState;

/**
 * Heterogeneous done-when 1: the core's concurrent mixed workload and bank invariant test run on
 * one virtual database whose replicas are a SQLite file, a PostgreSQL database and a MariaDB
 * database (the same portable DDL creates the tables on each, keys of the events table are chosen
 * by the controller); afterwards the three replicas hold the same rows, compared after
 * normalising types, and none was disabled.
 */
class HeterogeneousWorkloadIT {
    private static final Map<String, BackendState> ALL_ENABLED = HeterogeneousCluster.ALL_ENABLED;

    @TempDir
    Path dir;

    @Test
    void mixedWorkloadLeavesTheThreeEnginesIdentical() throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_hetero_mixed", "first")) {
            MixedWorkloadIT.run(cluster::connect);
            assertEquals(ALL_ENABLED, cluster.vdb().backendStates());
            cluster.controller.stop(); // every queued write applied everywhere
            assertTrue(cluster.assertIdentical("items", "id") > 0);
            assertTrue(cluster.assertIdentical("events", "id") > 0);
        }
    }

    @Test
    void bankTransfersKeepTheTotalOnEveryEngine() throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_hetero_bank", "first")) {
            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            BankInvariantIT.run(cluster::connect, acknowledged);
            assertEquals(ALL_ENABLED, cluster.vdb().backendStates());
            cluster.controller.stop();
            for (String b : HeterogeneousCluster.BACKENDS) {
                BankInvariantIT.assertBalancesExplained(cluster.direct(b), b, acknowledged);
            }
            cluster.assertIdentical("accounts", "id");
            cluster.assertIdentical("transfers", "id");
        }
    }
}
