package org.phalanx.requestmanager.verify;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.requestmanager.backend.Backends;
import org.phalanx.requestmanager.recovery.BackendAdministration;
import org.phalanx.requestmanager.scheduler.Scheduler;

/**
 * A virtual database's replica verifications: one at a time (another asked for meanwhile is
 * refused with 55006), the running one's progress and the last report, for management to read.
 */
public final class Verifications {
    private final ReplicaVerifier verifier;
    private final DifferenceActions actions;
    private final ReentrantLock running = new ReentrantLock();
    private final AtomicReference<VerificationProgress> progress = new AtomicReference<>();
    private final AtomicReference<VerificationReport> last = new AtomicReference<>();
    private final String virtualDatabase;

    public Verifications(String virtualDatabase, Backends backends, Scheduler scheduler,
                         BackendAdministration admin, boolean partial) {
        this.virtualDatabase = virtualDatabase;
        this.verifier = new ReplicaVerifier(virtualDatabase, backends, partial, scheduler);
        this.actions = new DifferenceActions(virtualDatabase, backends, admin, partial);
    }

    /**
     * Verifies, then acts on the outvoted replicas as the request says; the report includes what
     * was done and becomes {@link #last()}.
     *
     * @param rows told the rows compared of the estimated total (unit "rows"); may be null
     */
    public VerificationReport run(VerificationRequest request, Progress rows) throws SQLException {
        return run(request, rows, ActionGate.DIRECT);
    }

    /** The same, disabling or rebuilding outvoted replicas through {@code gate}. */
    public VerificationReport run(VerificationRequest request, Progress rows, ActionGate gate) throws SQLException {
        if (!running.tryLock()) {
            VerificationProgress p = progress.get();
            throw new SQLException("virtual database " + virtualDatabase + " is already being verified"
                    + (p == null ? "" : " (since " + p.started() + ", at table " + p.table() + ")"),
                    SqlState.OBJECT_IN_USE.code());
        }
        Progress sink = rows == null ? Progress.NONE : rows;
        String started = Instant.now().toString();
        AtomicLong done = new AtomicLong();
        try {
            VerificationReport report = verifier.verify(request, new ReplicaVerifier.Listener() {
                @Override
                public void tableStarted(String table, int index, int tables, long rowsTotal) {
                    progress.set(new VerificationProgress(started, table, index, tables, done.get(), rowsTotal));
                }

                @Override
                public void rowsDone(long n) {
                    long now = done.addAndGet(n);
                    VerificationProgress p = progress.get();
                    long total = Math.max(now, p.rowsTotal());
                    progress.set(new VerificationProgress(p.started(), p.table(), p.tablesDone(), p.tables(), now, total));
                    sink.report(now, total, "rows");
                }
            });
            VerificationProgress p = progress.get();
            if (p != null) {
                sink.report(done.get(), done.get(), "rows");
            }
            List<String> taken = List.of();
            if (request.onDifference() != OnDifference.REPORT && !report.minority().isEmpty()) {
                try {
                    taken = gate.around(() -> actions.apply(report, request.onDifference(), request.dumpDir(),
                            Progress.NONE));
                } catch (SQLException e) {
                    taken = List.of("outvoted replicas " + report.minority() + " not acted on: " + e.getMessage());
                }
            }
            VerificationReport complete = new VerificationReport(report.virtualDatabase(), report.started(),
                    report.millis(), report.rowsCompared(), report.rowsPerSecond(), report.onDifference(),
                    report.tables(), taken);
            last.set(complete);
            return complete;
        } finally {
            progress.set(null);
            running.unlock();
        }
    }

    /** The last finished verification's report. */
    public Optional<VerificationReport> last() {
        return Optional.ofNullable(last.get());
    }

    /** The running verification's progress; empty when none runs. */
    public Optional<VerificationProgress> running() {
        return Optional.ofNullable(progress.get());
    }


}
