package org.phalanx.requestmanager.distribution;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.PlacementRule;
import org.phalanx.requestmanager.config.ReplicationLevel;
import org.phalanx.requestmanager.recovery.LoggedSettings;
import org.phalanx.requestmanager.routing.PartialReplication;
import org.phalanx.requestmanager.routing.Placement;
import org.phalanx.requestmanager.routing.SchemaView;

/**
 * A member replicating partially (RAIDb-2, RAIDb-0; docs/distribution.md, Partial replication in a
 * group): each entry of the group's log applies to the backends of this member that hold the tables
 * it writes, and a CREATE TABLE to those this member's own placement rules choose — the same routing
 * as a single controller's ({@link PartialReplication}), over a schema view kept in log order.
 *
 * <p>The view follows the log, not the backends (which lag behind it): it is rebuilt at a restart
 * from the member's copy, whose entries name where each was applied, starting from the last
 * {@link PlacementRecord} (taken with a dump, or made when a received dump is placed, {@link #restart})
 * once the copy is compacted ({@link #learn}). A
 * transaction's COMMIT and ROLLBACK go where its writes went; the DDL of a transaction rolled back,
 * or of a write the primary reports failed everywhere, is undone in the view.
 */
final class PartialPlacement implements EntryPlacement {
    /** DDL effects kept for a FAILED entry that may follow; the primary reports a failure within a few entries. */
    private static final int UNDOABLE = 1_000;

    /** This member's backends, as the routing's keys: never connected here. */
    private final List<Backend> backends = new ArrayList<>();
    private final SchemaView schema = new SchemaView();
    private final PartialReplication routing;
    /** Where a table of a received dump goes: this member's own CREATE TABLE rules. */
    private final Placement rules;
    private final SqlAnalyzer analyzer = new SqlAnalyzer(10_000);
    /** Each open transaction's backends, so far. */
    private final Map<Long, Set<String>> open = new HashMap<>();
    /** What undoes each open transaction's DDL in the view, in the order it ran. */
    private final Map<Long, List<Runnable>> openUndo = new HashMap<>();
    /** What undoes the DDL of a recent auto-commit write or commit, by its position. */
    private final Map<Long, List<Runnable>> recentUndo = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, List<Runnable>> eldest) {
            return size() > UNDOABLE;
        }
    };
    private volatile long lastSchemaChange = -1;
    /** The position of the last entry placed (or of the record the view started from). */
    private long lastPlaced = -1;
    /**
     * The view after each of its recent changes, by position: a follower's backends lag behind the
     * view (tables are created while it catches up), and its dump needs the view at their position.
     */
    private final TreeMap<Long, Map<String, Set<String>>> history = new TreeMap<>();

    PartialPlacement(List<BackendConfig> own, ReplicationLevel replication, List<PlacementRule> rules) {
        for (BackendConfig bc : own) {
            backends.add(new Backend(bc, Duration.ofSeconds(5), b -> {
            }));
        }
        this.rules = Placement.of(replication, rules);
        this.routing = new PartialReplication(schema, this.rules);
        history.put(-1L, view()); // no table anywhere before the log's first entry
    }

    /**
     * Learns where every table is from this member's copy of the group's log: from {@code record}
     * (the view at a dump's position) and the entries after it, or, without one, from the whole copy,
     * which must then be whole: entries a compaction purged no longer say where their tables went.
     */
    void learn(RecoveryLog copy, PlacementRecord record) throws SQLException {
        long from = 0;
        if (record != null && record.position() >= copy.purgedThrough()) {
            start(record);
            from = record.position();
        } else if (copy.purgedThrough() > 0) {
            throw new SQLException("its copy of the group's log was compacted up to position " + copy.purgedThrough()
                    + (record == null ? " without a record of where its tables were" : ", past the record of where its"
                    + " tables were (at position " + record.position() + ")") + ": rebuild it as a new member (a new"
                    + " log folder, empty backends)");
        }
        try (CloseableIterator<LogEntry> entries = copy.read(from)) {
            while (entries.hasNext()) {
                placed(entries.next(), true);
            }
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException("its copy of the group's log cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * The view starts again from a dump received at {@code position} (the leader's snapshot): each of
     * its tables placed by this member's own rules among all its backends. Returns that view, for the
     * restore to put each table there and for later restarts to start from.
     */
    synchronized PlacementRecord restart(long position, List<String> dumpTables) throws SQLException {
        Map<String, Set<String>> placed = new LinkedHashMap<>();
        backends.forEach(b -> placed.put(b.name(), new LinkedHashSet<>()));
        for (String table : dumpTables) {
            for (Backend b : rules.place(table, backends)) {
                placed.get(b.name()).add(table);
            }
        }
        PlacementRecord record = new PlacementRecord(position, placed);
        start(record);
        return record;
    }

    private synchronized void start(PlacementRecord record) {
        open.clear();
        openUndo.clear();
        recentUndo.clear(); // what came before the record cannot be reported failed any more: it is in the dump
        for (Backend b : backends) {
            schema.learn(b, record.tables().getOrDefault(b.name(), Set.of()));
        }
        lastPlaced = record.position();
        history.clear();
        changed(record.position());
    }

    /** The view changed at {@code position}: kept, with the view after it, for {@link #viewAt}. */
    private void changed(long position) {
        lastSchemaChange = position;
        history.put(position, view());
        if (history.size() > UNDOABLE) {
            history.pollFirstEntry();
        }
    }

    private Map<String, Set<String>> view() {
        Map<String, Set<String>> tables = new LinkedHashMap<>();
        backends.forEach(b -> tables.put(b.name(), Set.copyOf(schema.tablesOf(b))));
        return tables;
    }

    /**
     * The view as it stood at {@code position} — which backend held which table there — or null if
     * it is not known: not placed that far yet, or more changes since than are kept. Meant for a
     * position no transaction was open at (a dump's).
     */
    synchronized PlacementRecord viewAt(long position) {
        Map.Entry<Long, Map<String, Set<String>>> before = history.floorEntry(position);
        if (lastPlaced < position || before == null) {
            return null;
        }
        return new PlacementRecord(position, before.getValue());
    }

    @Override
    public synchronized LogEntry placed(LogEntry e, boolean named) throws SQLException {
        lastPlaced = Math.max(lastPlaced, e.position());
        switch (e.kind()) {
            case STATEMENT, WRITE: {
                SqlAnalysis a = analyzer.analyze(LoggedSettings.fromLog(e.sql()).sql());
                Set<String> names = new LinkedHashSet<>();
                if (named) {
                    names.addAll(e.backends());
                } else {
                    routing.writeTargets(a, backends).forEach(b -> names.add(b.name()));
                }
                List<Runnable> undo = new ArrayList<>();
                for (Backend b : backends) {
                    Runnable u = names.contains(b.name()) ? routing.applied(b, a) : null;
                    if (u != null) {
                        undo.add(u);
                    }
                }
                if (!undo.isEmpty()) {
                    changed(e.position());
                }
                if (e.kind() == LogEntry.Kind.WRITE) {
                    open.computeIfAbsent(e.transactionId(), t -> new LinkedHashSet<>()).addAll(names);
                    openUndo.computeIfAbsent(e.transactionId(), t -> new ArrayList<>()).addAll(undo);
                } else if (!undo.isEmpty()) {
                    recentUndo.put(e.position(), undo);
                }
                return named ? e : e.withBackends(names);
            }
            case COMMIT, ROLLBACK: {
                Set<String> names = open.remove(e.transactionId());
                List<Runnable> undo = openUndo.remove(e.transactionId());
                if (undo != null && !undo.isEmpty()) {
                    if (e.kind() == LogEntry.Kind.ROLLBACK) {
                        undo(undo, e.position());
                    } else {
                        recentUndo.put(e.position(), undo); // the commit may still be reported failed
                    }
                }
                return named ? e : e.withBackends(names == null ? Set.of() : names);
            }
            case FAILED: {
                List<Runnable> undo = recentUndo.remove(e.transactionId()); // the failed write's position
                if (undo != null) {
                    undo(undo, e.position());
                }
                return e;
            }
            default:
                return e;
        }
    }

    private void undo(List<Runnable> undo, long position) {
        List<Runnable> reversed = new ArrayList<>(undo);
        Collections.reverse(reversed);
        reversed.forEach(Runnable::run);
        changed(position);
    }

    @Override
    public long lastSchemaChange() {
        return lastSchemaChange;
    }

    /** The tables this member's backend {@code name} holds as of the last entry placed, sorted. */
    synchronized List<String> tablesOf(String name) {
        return backends.stream().filter(b -> b.name().equals(name)).findFirst().map(schema::tablesOf)
                .orElse(List.of());
    }
}
