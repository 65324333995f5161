package org.phalanx.requestmanager.verify;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;

/**
 * Compares one table on the replicas of a consistent point: chunk by chunk along the primary key
 * (bounds from the first replica, the same sent to all), each engine counting and hashing its own
 * rows of the chunk; a chunk whose checksums differ is narrowed to its rows by per-key hashes, and
 * the majority decides which replica differs. A table without a primary key is compared whole.
 */
final class TableVerifier {
    /** Differing rows listed in a table's report (all are counted). */
    static final int MAX_ROWS_LISTED = 1000;

    private final ExecutorService pool;
    private final int chunkRows;
    private final Throttle throttle;
    private final LongConsumer rowsDone;

    /**
     * @param pool     runs one replica's query of a chunk while the others run theirs
     * @param rowsDone told the rows of each chunk compared (progress)
     */
    TableVerifier(ExecutorService pool, int chunkRows, Throttle throttle, LongConsumer rowsDone) {
        this.pool = pool;
        this.chunkRows = chunkRows;
        this.throttle = throttle;
        this.rowsDone = rowsDone;
    }

    @FunctionalInterface
    interface ReplicaQuery<T> {
        T run(ReplicaTable replica) throws SQLException;
    }

    /** The shapes of the table on every replica, in the reference's column order; a problem if they disagree. */
    static List<ReplicaTable> replicaTables(String table, List<ReplicaSnapshot> snapshots) throws SQLException {
        List<ReplicaTable> tables = new ArrayList<>();
        TableShape reference = null;
        for (ReplicaSnapshot s : snapshots) {
            Optional<TableShape> shape = TableShape.read(s.connection(), s.engine(), table);
            if (shape.isEmpty()) {
                throw new SQLException("backend " + s.name() + " holds no table " + table,
                        SqlState.UNDEFINED_TABLE.code());
            }
            TableShape here = shape.get();
            if (reference == null) {
                reference = here;
            } else {
                if (!new TreeSet<>(here.columnNames()).equals(new TreeSet<>(reference.columnNames()))) {
                    throw new SQLException("table " + table + " has columns " + reference.columnNames() + " on backend "
                            + snapshots.get(0).name() + " but " + here.columnNames() + " on backend " + s.name(),
                            SqlState.DATA_EXCEPTION.code());
                }
                if (!lower(here.key()).equals(lower(reference.key()))) {
                    throw new SQLException("table " + table + " has primary key " + lower(reference.key())
                            + " on backend " + snapshots.get(0).name() + " but " + lower(here.key()) + " on backend "
                            + s.name(), SqlState.DATA_EXCEPTION.code());
                }
                here = here.inOrderOf(reference.columnNames());
            }
            tables.add(new ReplicaTable(s, here));
        }
        return tables;
    }

    private static List<String> lower(List<String> names) {
        return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
    }

    /** What the reader should know about how the table was compared. */
    static List<String> notes(List<ReplicaTable> replicas) {
        List<String> notes = new ArrayList<>();
        Set<Engine> engines = new LinkedHashSet<>();
        replicas.forEach(r -> engines.add(r.replica().engine()));
        if (engines.size() > 1) {
            List<String> engineText = new ArrayList<>();
            for (TableColumn c : replicas.get(0).shape().columns()) {
                if (!c.kind().portable()
                        || replicas.stream().anyMatch(r -> !r.shape().column(c.name()).orElseThrow().kind().portable())) {
                    engineText.add(c.name());
                }
            }
            if (!engineText.isEmpty()) {
                notes.add("columns compared by each engine's own text (not canonical across engines, see"
                        + " docs/verification.md): " + String.join(", ", engineText));
            }
            if (replicas.get(0).shape().keyed() && !ordersAlike(replicas)) {
                notes.add("the primary key does not order alike on " + engines + ": compared as one chunk");
            }
        }
        if (!replicas.get(0).shape().keyed()) {
            notes.add("no primary key: compared whole (row count and hash), differing rows not listed");
        }
        return notes;
    }

    /** Whether a key range means the same rows on every replica: one engine, or integer keys. */
    static boolean ordersAlike(List<ReplicaTable> replicas) {
        if (replicas.stream().map(r -> r.replica().engine()).distinct().count() == 1) {
            return true;
        }
        for (ReplicaTable r : replicas) {
            for (String k : r.shape().key()) {
                if (r.shape().column(k).orElseThrow().kind() != ColumnKind.INTEGER) {
                    return false;
                }
            }
        }
        return true;
    }

    TableReport verify(String table, RenewingPoint point) throws SQLException {
        List<ReplicaTable> replicas = replicaTables(table, point.current().snapshots());
        List<String> names = replicas.stream().map(ReplicaTable::name).toList();
        ReplicaTable reference = replicas.get(0);
        List<String> keyNames = lower(reference.shape().key());
        boolean keyed = reference.shape().keyed();
        boolean ranged = keyed && ordersAlike(replicas);

        Map<String, Long> rowCounts = new LinkedHashMap<>();
        names.forEach(n -> rowCounts.put(n, 0L));
        List<RangeDifference> ranges = new ArrayList<>();
        List<RowDifference> rows = new ArrayList<>();
        Set<String> minority = new LinkedHashSet<>();
        long differingRows = 0;
        long compared = 0;
        int chunks = 0;
        List<Object> after = null;
        while (true) {
            if (chunks > 0 && point.renewIfOld()) {
                replicas = replicaTables(table, point.current().snapshots());
                reference = replicas.get(0);
            }
            List<Object> upTo = ranged ? reference.nextBound(after, chunkRows) : null;
            KeyRange range = new KeyRange(after, upTo);
            Map<String, ChunkChecksum> sums = onEach(replicas, r -> r.checksum(range));
            chunks++;
            long referenceRows = sums.get(reference.name()).rows();
            compared += referenceRows;
            sums.forEach((n, s) -> rowCounts.merge(n, s.rows(), Long::sum));
            if (sums.values().stream().distinct().count() > 1) {
                Map<String, Long> counts = new LinkedHashMap<>();
                sums.forEach((n, s) -> counts.put(n, s.rows()));
                ranges.add(new RangeDifference(range.describe(keyNames), counts));
                if (keyed) {
                    differingRows += narrow(replicas, range, keyNames, rows, minority);
                } else {
                    Majority.of(sums).ifPresent(m -> minority.addAll(Majority.outvoted(sums, m)));
                }
            }
            rowsDone.accept(referenceRows);
            throttle.passed(referenceRows);
            if (upTo == null) {
                break;
            }
            after = upTo;
        }
        List<String> notes = notes(replicas);
        if (point.renewals() > 0) {
            notes.add("compared at " + (point.renewals() + 1) + " successive consistent points from position "
                    + point.firstPosition() + " (SQLite snapshots are renewed every "
                    + RenewingPoint.SQLITE_MAX_AGE.toSeconds() + " s, see docs/verification.md)");
        }
        return new TableReport(table, names, point.firstPosition(), compared, chunks, keyed, ranges, differingRows, rows,
                rowCounts, List.copyOf(minority), notes, "");
    }

    /** Compares the rows of a differing chunk by key; adds what differs to {@code rows}; returns how many rows differ. */
    private long narrow(List<ReplicaTable> replicas, KeyRange range, List<String> keyNames, List<RowDifference> rows,
                        Set<String> minority) throws SQLException {
        Map<String, Map<List<String>, Long>> hashes = onEach(replicas, r -> r.rowHashes(range));
        Set<List<String>> keys = new LinkedHashSet<>();
        hashes.values().forEach(h -> keys.addAll(h.keySet()));
        String first = replicas.get(0).name();
        long differing = 0;
        for (List<String> key : keys) {
            Map<String, Long> values = new LinkedHashMap<>();
            hashes.forEach((name, h) -> values.put(name, h.get(key)));
            if (values.values().stream().distinct().count() == 1) {
                continue;
            }
            differing++;
            String keyText = keyText(keyNames, key);
            Optional<Majority.Holder<Long>> majority = Majority.of(values);
            if (majority.isPresent()) {
                Long right = majority.get().value();
                for (String name : Majority.outvoted(values, majority.get())) {
                    minority.add(name);
                    add(rows, new RowDifference(keyText, kind(right, values.get(name)), List.of(name), true));
                }
            } else {
                // nobody can tell: every replica holding something else than the first is named with it
                Long reference = values.get(first);
                List<String> named = new ArrayList<>();
                named.add(first);
                DifferenceKind kind = DifferenceKind.CHANGED;
                for (Map.Entry<String, Long> e : values.entrySet()) {
                    if (!e.getKey().equals(first) && !java.util.Objects.equals(e.getValue(), reference)) {
                        named.add(e.getKey());
                        kind = kind(reference, e.getValue());
                    }
                }
                add(rows, new RowDifference(keyText, kind, named, false));
            }
        }
        return differing;
    }

    private static void add(List<RowDifference> rows, RowDifference d) {
        if (rows.size() < MAX_ROWS_LISTED) {
            rows.add(d);
        }
    }

    /** How {@code other} differs from {@code right} (null: absent). */
    private static DifferenceKind kind(Long right, Long other) {
        if (right == null) {
            return DifferenceKind.EXTRA;
        }
        return other == null ? DifferenceKind.MISSING : DifferenceKind.CHANGED;
    }

    private static String keyText(List<String> keyNames, List<String> values) {
        List<String> pairs = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            pairs.add(keyNames.get(i) + "=" + values.get(i));
        }
        return String.join(", ", pairs);
    }

    /** Runs the query on every replica at once (each in its own engine); results by backend name, in replica order. */
    private <T> Map<String, T> onEach(List<ReplicaTable> replicas, ReplicaQuery<T> query) throws SQLException {
        List<Future<T>> futures = new ArrayList<>(replicas.size());
        for (ReplicaTable r : replicas) {
            futures.add(pool.submit(() -> query.run(r)));
        }
        Map<String, T> results = new LinkedHashMap<>();
        try {
            for (int i = 0; i < replicas.size(); i++) {
                results.put(replicas.get(i).name(), futures.get(i).get());
            }
        } catch (InterruptedException e) {
            futures.forEach(f -> f.cancel(true));
            Thread.currentThread().interrupt();
            throw new SQLException("verification interrupted", SqlState.OPERATION_CANCELED.code(), e);
        } catch (ExecutionException e) {
            futures.forEach(f -> f.cancel(true));
            Throwable cause = e.getCause();
            if (cause instanceof SQLException sql) {
                throw new SQLException(sql.getMessage(), sql.getSQLState(), sql);
            }
            throw new SQLException("verification failed: " + cause, SqlState.INTERNAL_ERROR.code(), cause);
        }
        return results;
    }
}
