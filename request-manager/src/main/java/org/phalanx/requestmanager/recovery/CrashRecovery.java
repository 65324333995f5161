package org.phalanx.requestmanager.recovery;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.BackendErrors;

/**
 * Brings the backends that were enabled when the controller died to exactly the logged state.
 *
 * <p>Each backend's {@link AppliedPositions} say which units of work (auto-commit writes,
 * committed transactions) it has committed; the log says which units there are. A backend
 * gets, by replay, exactly the committed units it lacks: none twice, nothing rolled back or left
 * unfinished by the crash. A backend that holds a position the log does not record as a
 * committed unit sent to it cannot be repaired by replay and is reported as failed.
 *
 * <p>A unit logged but committed by no backend was in flight at the crash and never
 * acknowledged: it is replayed like the others, and if it fails on every backend that replays it
 * (a constraint violation, say), it is recorded as failed everywhere, as it would have been live.
 */
public final class CrashRecovery {
    private static final Logger LOG = LogManager.getLogger(CrashRecovery.class);

    /** Position of each committed unit (auto-commit write, or a transaction's COMMIT) to the backends it went to. */
    private final Map<Long, Set<String>> units = new HashMap<>();
    /** Transaction id to the position of its COMMIT. */
    private final Map<Long, Long> commitOf = new HashMap<>();
    /** Positions a FAILED entry says failed on every backend. */
    private final Set<Long> failedEverywhere = new HashSet<>();
    /** Transactions the log never ended, by id: their first entry and every backend they wrote to. */
    private final Map<Long, LogEntry> unfinished = new LinkedHashMap<>();
    private final Map<Long, Set<String>> unfinishedBackends = new HashMap<>();
    private final long last;

    private CrashRecovery(long last) {
        this.last = last;
    }

    /** What one backend turned out to be. */
    public sealed interface Outcome {
        /** Recovered: it holds exactly the logged units; {@code replayed} of them were missing. */
        record Recovered(long replayed) implements Outcome {
        }

        /** It cannot be brought to the logged state by replay. */
        record Failed(String reason) implements Outcome {
        }

        /** It did not answer: what it holds is unknown until it does (its record then decides). */
        record Unreachable(String reason) implements Outcome {
        }
    }

    /** Replays of several backends at once; idle threads end after a minute. */
    private static final ExecutorService REPLAY_THREADS = Executors.newCachedThreadPool(task -> {
        Thread t = new Thread(task, "phalanx-replay");
        t.setDaemon(true);
        return t;
    });

    /** What the request manager appends to the log for the recovery (through its write ordering). */
    public interface LogAppender {
        /** The write or commit at that position failed on every backend. */
        void failed(long position);

        /** A transaction the crash left open is over: rolled back. */
        void rolledBack(long transactionId, String login, Set<String> backends) throws SQLException;
    }

    /**
     * Recovers each backend (disabled, reachable through its pools) and returns what became of it;
     * closes, in the log, the transactions the crash left open.
     *
     * @param last the log's last position at start (nothing is being written yet)
     */
    public static Map<Backend, Outcome> recover(List<Backend> backends, RecoveryLog log, long last, LogAppender append)
            throws SQLException {
        Map<Backend, Outcome> outcomes = new LinkedHashMap<>();
        Map<Backend, AppliedPositions.Applied> applied = new LinkedHashMap<>();
        for (Backend b : backends) {
            try (Connection c = b.connection(b.config().credentials())) {
                applied.put(b, AppliedPositions.read(c, AppliedTable.of(b)));
            } catch (SQLException e) {
                String reason = "its record of applied log positions cannot be read: " + e.getMessage();
                outcomes.put(b, BackendErrors.isConnectionFailure(e) ? new Outcome.Unreachable(reason)
                        : new Outcome.Failed(reason));
            }
        }
        long purged = log.purgedThrough();
        for (var it = applied.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Backend, AppliedPositions.Applied> e = it.next();
            if (e.getValue().floor() < purged) {
                // it lacks entries that are gone; the others are checked from their own floors (a scan from its
                // floor failed them all, and with them the whole virtual database)
                outcomes.put(e.getKey(), new Outcome.Failed("its record of applied log positions ends at "
                        + e.getValue().floor() + ", and the log's entries up to " + purged + " were purged since"));
                it.remove();
            }
        }
        long from = scanStart(applied.values(), log, last);
        CrashRecovery plan = new CrashRecovery(last);
        try {
            plan.scan(log, from);
        } catch (RuntimeException e) {
            String reason = "the recovery log cannot be read from position " + from + ": " + e.getMessage();
            for (Backend b : applied.keySet()) {
                outcomes.put(b, new Outcome.Failed(reason));
            }
            return outcomes;
        }
        Map<Backend, Set<Long>> missing = new LinkedHashMap<>();
        for (Map.Entry<Backend, AppliedPositions.Applied> e : applied.entrySet()) {
            String contradiction = plan.contradiction(e.getKey().name(), e.getValue());
            if (contradiction != null) {
                outcomes.put(e.getKey(), new Outcome.Failed(contradiction));
            } else {
                missing.put(e.getKey(), plan.missing(e.getKey().name(), e.getValue()));
            }
        }
        outcomes.putAll(plan.replay(missing, applied, log, append));
        for (Map.Entry<Long, LogEntry> u : plan.unfinished.entrySet()) {
            append.rolledBack(u.getKey(), u.getValue().login(), plan.unfinishedBackends.get(u.getKey()));
        }
        return outcomes;
    }

    /**
     * Where reading the log starts: the lowest floor. Floors are taken where no transaction is
     * open, so every transaction the recovery must see starts after it.
     */
    private static long scanStart(Collection<AppliedPositions.Applied> applied, RecoveryLog log, long last) {
        long from = Long.MAX_VALUE;
        for (AppliedPositions.Applied a : applied) {
            from = Math.min(from, a.floor());
        }
        if (from == Long.MAX_VALUE) {
            // no readable backend: still find the transactions the crash left open, after the last checkpoint
            from = log.purgedThrough();
            for (long checkpoint : log.checkpoints().values()) {
                if (checkpoint <= last) {
                    from = Math.max(from, checkpoint);
                }
            }
        }
        return Math.min(from, last);
    }

    private void scan(RecoveryLog log, long from) {
        try (CloseableIterator<LogEntry> entries = log.read(from)) {
            while (entries.hasNext()) {
                LogEntry e = entries.next();
                if (e.position() > last) {
                    break;
                }
                switch (e.kind()) {
                    case STATEMENT -> units.put(e.position(), e.backends());
                    case WRITE -> {
                        unfinished.putIfAbsent(e.transactionId(), e);
                        unfinishedBackends.computeIfAbsent(e.transactionId(), k -> new LinkedHashSet<>())
                                .addAll(e.backends());
                    }
                    case COMMIT -> {
                        unfinished.remove(e.transactionId());
                        unfinishedBackends.remove(e.transactionId());
                        commitOf.put(e.transactionId(), e.position());
                        units.put(e.position(), e.backends());
                    }
                    case ROLLBACK -> {
                        unfinished.remove(e.transactionId());
                        unfinishedBackends.remove(e.transactionId());
                    }
                    case FAILED -> failedEverywhere.add(e.transactionId());
                }
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Why a backend's record contradicts the log, or null when it does not. */
    private String contradiction(String backend, AppliedPositions.Applied applied) {
        if (applied.floor() > last) {
            return "it has applied everything up to log position " + applied.floor() + ", beyond the log's end ("
                    + last + ")";
        }
        for (long p : applied.above()) {
            if (p > last) {
                return "it has applied log position " + p + ", beyond the log's end (" + last + ")";
            }
            Set<String> sentTo = units.get(p);
            if (sentTo == null || !sentTo.contains(backend) || failedEverywhere.contains(p)) {
                return "it has applied log position " + p + ", which the log does not record as a committed write"
                        + " sent to it";
            }
        }
        return null;
    }

    /** The committed units sent to a backend that it has not applied. */
    private Set<Long> missing(String backend, AppliedPositions.Applied applied) {
        Set<Long> missing = new TreeSet<>();
        for (Map.Entry<Long, Set<String>> u : units.entrySet()) {
            long p = u.getKey();
            if (u.getValue().contains(backend) && !applied.has(p) && !failedEverywhere.contains(p)) {
                missing.add(p);
            }
        }
        return missing;
    }

    private Map<Backend, Outcome> replay(Map<Backend, Set<Long>> missing, Map<Backend, AppliedPositions.Applied> applied,
                                         RecoveryLog log, LogAppender append) {
        Map<Backend, Outcome> outcomes = new LinkedHashMap<>();
        Map<Backend, Replayer> replays = new LinkedHashMap<>();
        try {
            for (Map.Entry<Backend, Set<Long>> m : missing.entrySet()) {
                Backend b = m.getKey();
                Set<Long> lacking = m.getValue();
                String name = b.name();
                // only what it lacks: a statement at its position, a transaction's writes by its COMMIT's
                Replayer r = new Replayer(b, log, applied.get(b).floor(), e -> switch (e.kind()) {
                    case STATEMENT -> lacking.contains(e.position());
                    case WRITE -> e.backends().contains(name)
                            && lacking.contains(commitOf.getOrDefault(e.transactionId(), -1L));
                    default -> false;
                }, true);
                replays.put(b, r);
            }
            // a lost connection leaves it as its record says (nothing applied twice): unreachable, not failed
            replayAll(replays).forEach((b, failure) -> outcomes.put(b, BackendErrors.isConnectionFailure(failure)
                    ? new Outcome.Unreachable(failure.getMessage()) : new Outcome.Failed("replay failed: " + failure.getMessage())));
            settleInDoubt(missing, applied, replays, outcomes, append);
            for (Map.Entry<Backend, Replayer> r : replays.entrySet()) {
                Backend b = r.getKey();
                if (outcomes.containsKey(b)) {
                    continue;
                }
                try {
                    r.getValue().finish();
                    outcomes.put(b, new Outcome.Recovered(missing.get(b).size()));
                } catch (SQLException e) {
                    outcomes.put(b, new Outcome.Failed(e.getMessage()));
                }
            }
        } finally {
            replays.values().forEach(Replayer::close);
        }
        return outcomes;
    }

    /**
     * Runs each backend's replay to the last position, each on a thread of its own when there are
     * several (they share nothing but the log, which serves readers at once): recovery and a
     * follower's catch-up take as long as the slowest backend, not the sum of them all.
     *
     * @return why the replay failed, for each backend where it did
     */
    private Map<Backend, SQLException> replayAll(Map<Backend, Replayer> replays) {
        Map<Backend, CompletableFuture<SQLException>> running = new LinkedHashMap<>();
        replays.forEach((b, r) -> {
            Supplier<SQLException> replay = () -> {
                try {
                    r.replayUntil(last);
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            };
            running.put(b, replays.size() == 1 ? CompletableFuture.completedFuture(replay.get())
                    : CompletableFuture.supplyAsync(replay, REPLAY_THREADS));
        });
        Map<Backend, SQLException> failures = new LinkedHashMap<>();
        for (Map.Entry<Backend, CompletableFuture<SQLException>> f : running.entrySet()) {
            SQLException failure;
            try {
                failure = f.getValue().join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : e;
            }
            if (failure != null) {
                failures.put(f.getKey(), failure);
            }
        }
        return failures;
    }

    /**
     * A unit no backend had committed was in flight at the crash, unacknowledged. If replaying it
     * failed on every backend that replayed it, it fails everywhere, as it would have live: that
     * is recorded in the log and accepted.
     */
    private void settleInDoubt(Map<Backend, Set<Long>> missing, Map<Backend, AppliedPositions.Applied> applied,
                               Map<Backend, Replayer> replays, Map<Backend, Outcome> outcomes, LogAppender append) {
        Set<Long> candidates = new TreeSet<>();
        replays.forEach((b, r) -> candidates.addAll(r.unconfirmedFailures().keySet()));
        for (long p : candidates) {
            boolean inDoubt = units.containsKey(p);
            boolean failedOnAll = true;
            List<Replayer> replayedIt = new ArrayList<>();
            for (Map.Entry<Backend, AppliedPositions.Applied> a : applied.entrySet()) {
                Backend b = a.getKey();
                if (!units.containsKey(p) || !units.get(p).contains(b.name())) {
                    continue;
                }
                if (a.getValue().has(p)) {
                    inDoubt = false; // committed somewhere: the others must have it too
                }
                Replayer r = replays.get(b);
                if (r != null && !outcomes.containsKey(b) && missing.get(b).contains(p)) {
                    replayedIt.add(r);
                    failedOnAll &= r.unconfirmedFailures().containsKey(p);
                }
            }
            if (inDoubt && failedOnAll && !replayedIt.isEmpty()) {
                LOG.warn("log position {} was in flight at the crash and fails on every backend: recorded as failed", p);
                append.failed(p);
                replayedIt.forEach(r -> r.confirmFailed(p));
            }
        }
    }
}
