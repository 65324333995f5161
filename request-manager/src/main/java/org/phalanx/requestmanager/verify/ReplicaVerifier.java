package org.phalanx.requestmanager.verify;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongConsumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.Backends;
import org.phalanx.requestmanager.routing.SchemaLearner;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.Scheduler;

/**
 * Compares the tables of a virtual database across the enabled replicas holding each (under
 * partial replication, only those), table after table, each at a consistent point of its own so
 * no snapshot is held longer than one table takes. Logs every difference; acts on none.
 */
final class ReplicaVerifier {
    private static final Logger LOG = LogManager.getLogger(ReplicaVerifier.class);

    private final String virtualDatabase;
    private final Backends backends;
    /** Under partial replication a table is compared on the replicas holding it; otherwise every replica must. */
    private final boolean partial;
    private final ConsistentPoint point;
    /** The tables each enabled backend holds, read from its metadata when a run starts. */
    private Map<Backend, Set<String>> held = Map.of();

    ReplicaVerifier(String virtualDatabase, Backends backends, boolean partial, Scheduler scheduler) {
        this.virtualDatabase = virtualDatabase;
        this.backends = backends;
        this.partial = partial;
        this.point = new ConsistentPoint(scheduler);
    }

    /** The enabled backends that must hold the table: under full replication all, else those that do. */
    private List<Backend> holders(String table) {
        List<Backend> holders = new ArrayList<>();
        for (Backend b : backends.enabled()) {
            Set<String> tables = held.get(b);
            if (!partial || tables != null && tables.contains(table)) {
                holders.add(b);
            }
        }
        return holders;
    }

    /** Reads what every enabled backend holds now (its own metadata: the truth, whatever the controller learned). */
    private void learnTables() throws SQLException {
        Map<Backend, Set<String>> tables = new HashMap<>();
        for (Backend b : backends.enabled()) {
            try (Connection c = b.connection(b.config().credentials())) {
                tables.put(b, SchemaLearner.tables(c));
            }
        }
        held = tables;
    }

    /** Told where a run is: the table starting, and rows done. */
    interface Listener {
        void tableStarted(String table, int index, int tables, long rowsTotal);

        void rowsDone(long rows);
    }

    /** The tables to compare: those asked for (each held by some enabled backend), or all, sorted. */
    List<String> tables(VerificationRequest request) throws SQLException {
        List<Backend> enabled = backends.enabled();
        if (enabled.isEmpty()) {
            throw new SQLException("virtual database " + virtualDatabase + " has no enabled backend to verify",
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        learnTables();
        if (request.tables().isEmpty()) {
            TreeSet<String> all = new TreeSet<>();
            held.values().forEach(all::addAll);
            return List.copyOf(all);
        }
        List<String> named = new ArrayList<>();
        for (String t : request.tables()) {
            String key = SchemaView.key(t);
            if (held.values().stream().noneMatch(tables -> tables.contains(key))) {
                throw new SQLException("virtual database " + virtualDatabase + " has no table " + t
                        + " on an enabled backend", SqlState.UNDEFINED_TABLE.code());
            }
            if (!named.contains(key)) {
                named.add(key);
            }
        }
        return named;
    }

    VerificationReport verify(VerificationRequest request, Listener listener) throws SQLException {
        List<String> tables = tables(request);
        boolean everyTable = request.tables().isEmpty();
        Instant started = Instant.now();
        long start = System.nanoTime();
        long total = 0;
        for (String t : tables) {
            total += estimate(t);
        }
        Throttle throttle = new Throttle(request.rowsPerSecond());
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread th = new Thread(r, "phalanx-verify-" + virtualDatabase);
            th.setDaemon(true);
            return th;
        });
        List<TableReport> reports = new ArrayList<>();
        try {
            TableVerifier verifier = new TableVerifier(pool, request.chunkRows(), throttle, listener::rowsDone);
            for (int i = 0; i < tables.size(); i++) {
                String t = tables.get(i);
                listener.tableStarted(t, i, tables.size(), total);
                Optional<TableReport> r = verifyTable(t, verifier, everyTable);
                r.ifPresent(report -> {
                    reports.add(report);
                    log(report);
                });
            }
        } finally {
            pool.shutdownNow();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        long rows = reports.stream().mapToLong(TableReport::rowsCompared).sum();
        return new VerificationReport(virtualDatabase, started.toString(), millis, rows,
                millis == 0 ? rows * 1000 : rows * 1000 / millis, request.onDifference(), reports, List.of());
    }

    /** One table's report; empty for a view met while verifying every table. */
    private Optional<TableReport> verifyTable(String table, TableVerifier verifier, boolean everyTable) {
        List<Backend> holders = holders(table);
        List<Backend> comparable = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (Backend b : holders) {
            if (verifiable(b)) {
                comparable.add(b);
            } else {
                notes.add("backend " + b.name() + " not compared: verification runs on SQLite, PostgreSQL and MariaDB"
                        + " backends only (it is " + b.engine() + ")");
            }
        }
        List<String> names = comparable.stream().map(Backend::name).toList();
        if (comparable.size() < 2) {
            notes.add("fewer than two enabled replicas hold it: nothing to compare");
            return Optional.of(new TableReport(table, names, -1, 0, 0, false, List.of(), 0, List.of(),
                    java.util.Map.of(), List.of(), notes, ""));
        }
        try (RenewingPoint opened = RenewingPoint.open(point, comparable)) {
            ReplicaSnapshot first = opened.current().snapshots().get(0);
            if (everyTable && TableShape.read(first.connection(), first.engine(), table).isEmpty()) {
                return Optional.empty(); // a view: nothing of its own to compare
            }
            TableReport r = verifier.verify(table, opened);
            if (notes.isEmpty()) {
                return Optional.of(r);
            }
            List<String> all = new ArrayList<>(notes);
            all.addAll(r.notes());
            return Optional.of(new TableReport(r.table(), r.backends(), r.position(), r.rowsCompared(), r.chunks(),
                    r.keyed(), r.ranges(), r.differingRows(), r.rows(), r.rowCounts(), r.minority(), all, r.problem()));
        } catch (SQLException | RuntimeException e) {
            LOG.warn("virtual database {}: table {} could not be verified: {}", virtualDatabase, table, e.getMessage());
            return Optional.of(TableReport.failed(table, names, String.valueOf(e.getMessage())));
        }
    }

    private static boolean verifiable(Backend b) {
        Engine e = b.engine();
        return e == Engine.SQLITE || e == Engine.POSTGRESQL || e == Engine.MARIADB;
    }

    /** Rows of the table on its first enabled holder, for the progress total (0 when it cannot be counted). */
    private long estimate(String table) {
        List<Backend> holders = holders(table);
        if (holders.isEmpty() || !verifiable(holders.get(0))) {
            return 0;
        }
        Backend b = holders.get(0);
        try (Connection c = b.connection(b.config().credentials())) {
            Optional<TableShape> shape = TableShape.read(c, b.dialect(), table);
            if (shape.isEmpty()) {
                return 0;
            }
            String quote = c.getMetaData().getIdentifierQuoteString();
            try (var s = c.createStatement();
                 var rs = s.executeQuery("SELECT COUNT(*) FROM " + CanonicalRow.quoted(quote, shape.get().name()))) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            return 0;
        }
    }

    /** A log line per difference, so an operator reading the log alone sees them all. */
    private void log(TableReport r) {
        if (!r.problem().isEmpty()) {
            return; // logged where it failed
        }
        if (r.identical()) {
            LOG.info("virtual database {}: table {} identical on {} ({} rows, {} chunks, position {})",
                    virtualDatabase, r.table(), r.backends(), r.rowsCompared(), r.chunks(), r.position());
            return;
        }
        for (RangeDifference d : r.ranges()) {
            LOG.warn("virtual database {}: table {} differs in {}: rows per backend {}", virtualDatabase, r.table(),
                    d.range(), d.rowCounts());
        }
        for (RowDifference d : r.rows()) {
            LOG.warn("virtual database {}: table {} row {} {} on {}{}", virtualDatabase, r.table(), d.key(), d.kind(),
                    String.join(", ", d.backends()), d.decided() ? " (outvoted by the majority)"
                            : " (no majority: cannot tell which replica is right)");
        }
        if (r.differingRows() > r.rows().size()) {
            LOG.warn("virtual database {}: table {}: {} more differing rows not listed", virtualDatabase, r.table(),
                    r.differingRows() - r.rows().size());
        }
    }
}
