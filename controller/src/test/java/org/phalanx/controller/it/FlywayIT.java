package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.phalanx.controller.it.Sql.update;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Real Flyway, default settings (but {@code clean} allowed), against a virtual database of two
 * SQLite, PostgreSQL or MariaDB backends with a recovery log (issue 18) while another client keeps
 * a transaction open (writing; reading on SQLite, which has one writer at a time):
 * migrate, info, validate, repair, clean, migrate again — no step waits for that transaction —
 * and afterwards the replicas are identical, Flyway's history (with its timestamps) included.
 */
class FlywayIT {
    @org.junit.jupiter.api.io.TempDir
    Path dir;
    private EngineCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void migrateInfoValidateRepairCleanMigrate(Kind kind) throws Exception {
        // Flyway names its tables with the database a backend reports: the two MariaDB backends of
        // this test share one server under two names, which rewriting rules map (on servers of their
        // own, backends would have one name)
        String rewriting = kind != Kind.MARIADB ? "" : """
                <rewriting>
                    <rewrite backend="b1" pattern="phalanx_flyway\\d+_" replacement="phalanx_flyway1_"/>
                    <rewrite backend="b2" pattern="phalanx_flyway\\d+_" replacement="phalanx_flyway2_"/>
                  </rewriting>""";
        cluster = new EngineCluster(dir, kind, 2, "phalanx_flyway", "", rewriting, "<recoveryLog dir=\"log\"/>");
        // the other client's table lives outside Flyway's schema, which must be empty at first
        String busy;
        if (kind == Kind.SQLITE) {
            busy = null; // one schema, which Flyway must find empty; and one SQLite file has one writer at a time
        } else if (kind == Kind.POSTGRESQL) {
            busy = "other.busy";
            try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
                s.executeUpdate("CREATE SCHEMA other");
                s.executeUpdate("CREATE TABLE other.busy (v INTEGER NOT NULL)");
            }
        } else {
            // a database per backend is not possible on one server: both backends' inserts land in it
            busy = "test.phalanx_flyway_busy";
            try (Connection direct = cluster.direct(cluster.backends().get(0)); Statement s = direct.createStatement()) {
                s.executeUpdate("CREATE OR REPLACE TABLE " + busy + " (v INTEGER NOT NULL)");
            }
        }
        Flyway flyway = Flyway.configure().dataSource(cluster.dataSource()).locations("classpath:flyway/app")
                .cleanDisabled(false).load();
        try (Connection longTx = cluster.connect()) {
            longTx.setAutoCommit(false);
            if (busy != null) {
                update(longTx, "INSERT INTO " + busy + " VALUES (1)");
            } else {
                // a reading transaction: on one SQLite file too, a writing one would hold every writer
                // back; at READ COMMITTED, since at SERIALIZABLE the controller's shared locks on what it
                // read (here the schema: everything) hold writers back until it ends
                longTx.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                try (Statement s = longTx.createStatement(); var rs = s.executeQuery("SELECT COUNT(*) FROM sqlite_master")) {
                    rs.next();
                }
            }

            assertEquals(3, flyway.migrate().migrationsExecuted);
            MigrationInfo[] applied = flyway.info().applied();
            assertEquals(3, applied.length);
            assertEquals(3, Arrays.stream(applied).filter(m -> m.getState() == MigrationState.SUCCESS).count());
            flyway.validate();
            flyway.repair();
            flyway.clean();
            assertEquals(3, flyway.migrate().migrationsExecuted);
            longTx.commit();
        }
        if (kind == Kind.MARIADB) {
            try (Connection direct = cluster.direct(cluster.backends().get(0)); Statement s = direct.createStatement()) {
                s.executeUpdate("DROP TABLE " + busy);
            }
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("account", "id");
        cluster.assertIdentical("flyway_schema_history", "installed_rank");
    }
}
