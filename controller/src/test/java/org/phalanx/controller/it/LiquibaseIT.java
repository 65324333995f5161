package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.changelog.ChangeLogHistoryServiceFactory;
import liquibase.lockservice.LockServiceFactory;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Real Liquibase (4.x, its Java API as build plugins and Spring Boot call it) through a virtual
 * database of two SQLite, PostgreSQL or MariaDB backends with a recovery log: a first release, the
 * second, an update with nothing left to do, status and validate — the same steps first on one
 * database of the engine, directly. Afterwards the replicas are
 * identical, Liquibase's history included (its execution times, and the column default the
 * backends would each compute, chosen once by the controller), and the application's tables and
 * the history's changesets are what the same Liquibase leaves on one database of that engine.
 */
@SuppressWarnings("deprecation") // the Liquibase class: still what most integrations call
class LiquibaseIT {
    private static final String CHANGELOG = "liquibase/app.xml";

    @TempDir
    Path dir;
    @AutoClose
    private EngineCluster cluster;
    @AutoClose
    private DirectDatabase direct;

    @ParameterizedTest
    @EnumSource(Kind.class)
    void updateUpdateStatusValidate(Kind kind) throws Exception {
        direct = new DirectDatabase(dir, kind, "phalanx_lbdirect");
        migrate(direct); // first: what one database of the engine does

        cluster = new EngineCluster(dir, kind, 2, "phalanx_lb", "", "", "<recoveryLog dir=\"log\"/>");
        ConnectionSource phalanx = cluster::connect;
        migrate(phalanx);

        cluster.assertAllEnabled();
        String history = kind == Kind.POSTGRESQL ? "databasechangelog" : "DATABASECHANGELOG";
        try (Connection v = phalanx.connect(); Connection d = direct.connect()) {
            assertEquals(rows(d, "SELECT id, name, tier FROM customer ORDER BY id"),
                    rows(v, "SELECT id, name, tier FROM customer ORDER BY id"), "customers as on one database");
            assertEquals(rows(d, "SELECT id, customer_id, total FROM purchase ORDER BY id"),
                    rows(v, "SELECT id, customer_id, total FROM purchase ORDER BY id"), "purchases as on one database");
            assertEquals(rows(d, "SELECT name, spent FROM customer_total ORDER BY name"),
                    rows(v, "SELECT name, spent FROM customer_total ORDER BY name"), "the view as on one database");
            String changesets = "SELECT ID, AUTHOR, FILENAME, ORDEREXECUTED, EXECTYPE, MD5SUM, TAG FROM " + history
                    + " ORDER BY ORDEREXECUTED";
            List<String> applied = rows(v, changesets);
            assertEquals(rows(d, changesets), applied, "Liquibase's history as on one database");
            assertEquals(8, applied.size(), "each changeset once: " + applied);
        }
        cluster.stopController();
        cluster.assertIdentical("customer", "id");
        cluster.assertIdentical("purchase", "id");
        cluster.assertIdentical(history, "ORDEREXECUTED");
    }

    /**
     * The first release, the second, an update with nothing to do, status and validate: each step
     * on a connection of its own, as separate runs of Liquibase would.
     */
    private static void migrate(ConnectionSource ds) throws Exception {
        step(ds, l -> l.update("release-1", new Contexts(), new LabelExpression()));
        update(ds);
        update(ds); // nothing left: it takes Liquibase's lock, reads the history and gives the lock back
        step(ds, l -> assertEquals(List.of(), l.listUnrunChangeSets(new Contexts(), new LabelExpression()),
                "nothing left to run"));
        step(ds, Liquibase::validate);
    }

    /** One run of Liquibase. */
    @FunctionalInterface
    private interface Step {
        void run(Liquibase liquibase) throws Exception;
    }

    private static void step(ConnectionSource ds, Step step) throws Exception {
        // Liquibase keeps what it learnt of a database (its history, its lock) per URL in the JVM: a
        // fresh start each time, as a run of its own would have
        ChangeLogHistoryServiceFactory.getInstance().resetAll();
        LockServiceFactory.getInstance().resetAll();
        try (Connection c = ds.connect()) {
            step.run(liquibase(c));
        }
    }

    private static void update(ConnectionSource ds) throws Exception {
        step(ds, l -> l.update(new Contexts(), new LabelExpression()));
    }

    private static Liquibase liquibase(Connection c) throws Exception {
        Database database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
        return new Liquibase(CHANGELOG, new ClassLoaderResourceAccessor(), database);
    }

    /** Each row as text, numbers compared by value (a DECIMAL's scale as the engine gives it). */
    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    Object o = rs.getObject(i);
                    b.append(o instanceof java.math.BigDecimal d ? d.stripTrailingZeros().toPlainString() : o).append('|');
                }
                rows.add(b.toString());
            }
        }
        return rows;
    }
}
