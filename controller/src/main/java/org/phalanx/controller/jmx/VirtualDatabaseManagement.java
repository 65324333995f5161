package org.phalanx.controller.jmx;

import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.Notification;
import javax.management.NotificationBroadcasterSupport;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.distribution.GroupMember;
import org.phalanx.requestmanager.stats.Statistics;
import org.phalanx.requestmanager.verify.OnDifference;
import org.phalanx.requestmanager.verify.TableReport;
import org.phalanx.requestmanager.verify.VerificationReport;
import org.phalanx.requestmanager.verify.VerificationRequest;

/**
 * The virtual database MBean: a thin adapter over {@link VirtualDatabase}'s operator API. Every
 * operator action of this virtual database goes through here (the backend, cache and log MBeans
 * delegate), so each ends with one {@link Notifications#OPERATION_FINISHED} notification.
 *
 * <p>Errors reach JMX clients as a new {@link SQLException} with the message and SQLState only:
 * a cause of a Phalanx class could not be read by a client without Phalanx on its class path.
 */
public final class VirtualDatabaseManagement extends NotificationBroadcasterSupport implements VirtualDatabaseMXBean {
    /** Progress notifications at most this often per operation (the last one always goes). */
    private static final long PROGRESS_INTERVAL_NANOS = 200_000_000L;

    /**
     * What unloading a virtual database means; the controller does it (and reads the mode, so
     * this package needs nothing from the controller's own).
     */
    @FunctionalInterface
    public interface Unloader {
        /**
         * @param mode wait, safe or force, as the operator wrote it
         * @throws IllegalArgumentException if the mode is none of these
         */
        void unload(String virtualDatabase, String mode) throws SQLException;
    }

    private final VirtualDatabase vdb;
    private final Unloader unloader;
    private final AtomicLong sequence = new AtomicLong();

    public VirtualDatabaseManagement(VirtualDatabase vdb, Unloader unloader) {
        super(Notifications.info());
        this.vdb = vdb;
        this.unloader = unloader;
        vdb.requestManager().ifPresent(rm -> rm.addBackendListener((b, from, to, reason, failure) ->
                backendChanged(b.name(), from, to, reason, failure)));
        vdb.onVerification(this::verified);
    }

    /** Notifies a finished verification (on demand or scheduled): one notification per differing table, then its end. */
    private void verified(VerificationReport report) {
        for (TableReport t : report.tables()) {
            if (t.identical() || !t.problem().isEmpty()) {
                continue;
            }
            String minority = String.join(" ", t.minority());
            String ranges = firstLines(t.ranges().stream().map(VerificationDescription::range).toList());
            String rows = firstLines(t.rows().stream().map(VerificationDescription::row).toList());
            send(Notifications.VERIFICATION_DIFFERENCE, "table " + t.table() + " of " + vdb.name() + " differs: "
                            + (t.keyed() ? t.differingRows() + " rows" : "whole table")
                            + (minority.isEmpty() ? " (no majority)" : ", outvoted: " + minority),
                    Notifications.difference(vdb.name(), t.table(), t.differingRows(), minority, ranges, rows));
        }
        String minority = String.join(" ", report.minority());
        send(Notifications.VERIFICATION_FINISHED, "verification of " + vdb.name() + " finished: "
                        + (report.identical() ? "identical" : report.differences() + " differences")
                        + (minority.isEmpty() ? "" : ", outvoted: " + minority),
                Notifications.verified(vdb.name(), report.tables().size(), report.rowsCompared(),
                        report.differences(), minority, String.join("\n", report.actions()), report.millis()));
    }

    private static String firstLines(List<String> lines) {
        List<String> shown = lines.size() > Notifications.LINES_NOTIFIED
                ? new java.util.ArrayList<>(lines.subList(0, Notifications.LINES_NOTIFIED)) : new java.util.ArrayList<>(lines);
        if (lines.size() > shown.size()) {
            shown.add("... " + (lines.size() - shown.size()) + " more");
        }
        return String.join("\n", shown);
    }

    VirtualDatabase virtualDatabase() {
        return vdb;
    }

    private void backendChanged(String backend, BackendState from, BackendState to, String reason, boolean failure) {
        String message = "backend " + backend + " of " + vdb.name() + ": " + from + " -> " + to
                + (reason == null ? "" : " (" + reason + ")");
        send(Notifications.BACKEND_STATE, message,
                Notifications.backendChange(vdb.name(), backend, from.name(), to.name(), reason, failure));
        if (failure) {
            send(Notifications.BACKEND_FAILURE, message,
                    Notifications.backendChange(vdb.name(), backend, from.name(), to.name(), reason, true));
        }
    }

    private void send(String type, String message, Object userData) {
        Notification n = new Notification(type, ObjectNames.virtualDatabase(vdb.name()), sequence.incrementAndGet(),
                System.currentTimeMillis(), message);
        n.setUserData(userData);
        sendNotification(n);
    }

    // ------------------------------------------------------------------ attributes

    @Override
    public String getName() {
        return vdb.name();
    }

    @Override
    public String[] getBackends() {
        return vdb.backendStates().keySet().toArray(String[]::new);
    }

    @Override
    public Map<String, String> getBackendStates() {
        Map<String, String> states = new LinkedHashMap<>();
        vdb.backendStates().forEach((name, state) -> states.put(name, state.name()));
        return states;
    }

    private Statistics.Snapshot statistics() {
        Statistics.Snapshot s = vdb.statistics();
        return s != null ? s : new Statistics.Snapshot(0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Override
    public long getReads() {
        return statistics().reads();
    }

    @Override
    public long getWrites() {
        return statistics().writes();
    }

    @Override
    public long getCommits() {
        return statistics().commits();
    }

    @Override
    public long getRollbacks() {
        return statistics().rollbacks();
    }

    @Override
    public long getTransactions() {
        Statistics.Snapshot s = statistics();
        return s.commits() + s.rollbacks();
    }

    @Override
    public long getErrors() {
        return statistics().errors();
    }

    @Override
    public long getReadRetries() {
        return statistics().readRetries();
    }

    @Override
    public long getUnparsedStatements() {
        return statistics().unparsedStatements();
    }

    @Override
    public long getRowLevelWrites() {
        return statistics().rowLevelWrites();
    }

    @Override
    public int getPendingRequests() {
        return vdb.requestManager().map(RequestManager::pendingRequests).orElse(0);
    }

    @Override
    public int getOpenSessions() {
        return vdb.requestManager().map(RequestManager::openSessions).orElse(0);
    }

    @Override
    public int getOpenTransactions() {
        return vdb.requestManager().map(RequestManager::openTransactions).orElse(0);
    }

    @Override
    public Map<String, Double> getAnswerTimeMicros() {
        return vdb.answerTimes().summaryMicros();
    }

    @Override
    public String getRunningOperation() {
        return vdb.runningOperation().orElse("");
    }

    @Override
    public StatementStatistics[] topStatements(int n) {
        return vdb.requestManager().map(rm -> rm.topStatements(n)).orElse(List.of()).stream()
                .map(t -> new StatementStatistics(t.template(), t.count(), t.errors(), t.cacheHits(),
                        t.meanNanos() / 1000, t.maxNanos() / 1000))
                .toArray(StatementStatistics[]::new);
    }

    @Override
    public Map<String, Long> getCheckpoints() throws SQLException {
        try {
            return vdb.checkpoints();
        } catch (SQLException e) {
            throw clean(e);
        }
    }

    @Override
    public DumpDescription[] listDumps() throws SQLException {
        try {
            return vdb.listDumps().stream().map(d -> d.readable()
                    ? describe(d.name(), d.info())
                    : new DumpDescription(d.name(), "", "", "", -1, -1, -1, "", d.problem()))
                    .toArray(DumpDescription[]::new);
        } catch (SQLException e) {
            throw clean(e);
        }
    }

    private static DumpDescription describe(String name, DumpInfo info) {
        return new DumpDescription(name, info.format(), String.valueOf(info.sourceEngine()), info.checkpointName(),
                info.checkpointPosition(), info.totalRows(), info.size(), String.valueOf(info.created()), "");
    }

    // ------------------------------------------------------------------ operator actions

    @Override
    public void disableBackend(String backend) throws SQLException {
        action("disable backend " + backend, () -> {
            vdb.disableBackend(backend);
            return "backend " + backend + " disabled";
        });
    }

    @Override
    public void enableBackend(String backend) throws SQLException {
        action("enable backend " + backend, () -> {
            vdb.enableBackend(backend);
            return "backend " + backend + " enabled";
        });
    }

    @Override
    public long checkpoint(String name) throws SQLException {
        return Long.parseLong(action("checkpoint " + name, () -> String.valueOf(vdb.checkpoint(name))));
    }

    @Override
    public long purgeLog() throws SQLException {
        return Long.parseLong(action("purge log", () -> String.valueOf(vdb.purgeLog())));
    }

    @Override
    public DumpDescription backup(String backend, String dumpName, String format) throws SQLException {
        String operation = "backup " + backend + " to " + dumpName;
        DumpInfo[] info = new DumpInfo[1];
        action(operation, () -> {
            info[0] = vdb.backup(backend, dumpName, format == null || format.isBlank() ? null : format.trim(),
                    progress(operation));
            return dumpName + ": " + info[0].totalRows() + " rows, " + info[0].size() + " bytes";
        });
        return describe(dumpName, info[0]);
    }

    @Override
    public DumpDescription restore(String backend, String dumpName, boolean force) throws SQLException {
        String operation = "restore " + dumpName + " onto " + backend;
        DumpInfo[] info = new DumpInfo[1];
        action(operation, () -> {
            info[0] = vdb.restore(backend, dumpName, force, progress(operation));
            return dumpName + " restored onto " + backend + ": " + info[0].totalRows() + " rows";
        });
        return describe(dumpName, info[0]);
    }

    @Override
    public void deleteDump(String dumpName) throws SQLException {
        action("delete dump " + dumpName, () -> {
            vdb.deleteDump(dumpName);
            return "dump " + dumpName + " deleted";
        });
    }

    @Override
    public void flushCache() {
        vdb.flushCache();
    }

    @Override
    public VerificationDescription verify(String tables) throws SQLException {
        return verifyWith(tables, 0, "report");
    }

    @Override
    public VerificationDescription verifyWith(String tables, long rowsPerSecond, String onDifference)
            throws SQLException {
        List<String> names = tableNames(tables);
        OnDifference action;
        try {
            action = OnDifference.of(onDifference == null || onDifference.isBlank() ? "report" : onDifference);
        } catch (IllegalArgumentException e) {
            throw new SQLException("onDifference must be report, disable or rebuild, not '" + onDifference + "'",
                    SqlState.INVALID_PARAMETER_VALUE.code());
        }
        if (rowsPerSecond < 0) {
            throw new SQLException("rowsPerSecond cannot be negative: " + rowsPerSecond,
                    SqlState.INVALID_PARAMETER_VALUE.code());
        }
        String operation = verifyOperation(tables);
        VerificationReport[] report = new VerificationReport[1];
        action(operation, () -> {
            report[0] = vdb.verify(new VerificationRequest(names, rowsPerSecond, VerificationRequest.DEFAULT_CHUNK_ROWS,
                    action, null), progress(operation));
            return report[0].identical() ? "identical: " + report[0].rowsCompared() + " rows"
                    : report[0].differences() + " differences, " + report[0].problems() + " tables not compared";
        });
        return VerificationDescription.of(report[0]);
    }

    /** The operation's name in progress and end notifications: {@code verify all tables}, {@code verify items orders}. */
    public static String verifyOperation(String tables) {
        List<String> names = tableNames(tables);
        return "verify " + (names.isEmpty() ? "all tables" : String.join(" ", names));
    }

    private static List<String> tableNames(String tables) {
        String text = tables == null ? "" : tables.trim();
        return text.isEmpty() ? List.of()
                : java.util.Arrays.stream(text.split("[\\s,]+")).filter(t -> !t.isEmpty()).distinct().toList();
    }

    @Override
    public VerificationDescription getLastVerification() {
        return vdb.lastVerification().map(VerificationDescription::of).orElse(null);
    }

    @Override
    public VerificationProgressDescription getVerificationProgress() {
        return vdb.verificationProgress().map(p -> new VerificationProgressDescription(p.started(), p.table(),
                p.tablesDone(), p.tables(), p.rowsDone(), p.rowsTotal())).orElse(null);
    }

    @Override
    public void shutdown(String mode) throws SQLException {
        try {
            unloader.unload(vdb.name(), mode);
        } catch (SQLException e) {
            throw clean(e);
        }
    }

    @FunctionalInterface
    private interface Action {
        String run() throws SQLException;
    }

    /** Runs an operator action and notifies its end, success or failure; returns what it reports. */
    private String action(String operation, Action action) throws SQLException {
        long start = System.nanoTime();
        try {
            String result = action.run();
            finished(operation, true, result, start);
            return result;
        } catch (SQLException e) {
            finished(operation, false, e.getMessage(), start);
            throw clean(e);
        } catch (RuntimeException e) {
            finished(operation, false, e.toString(), start);
            throw new IllegalStateException(operation + " failed: " + e);
        }
    }

    private void finished(String operation, boolean succeeded, String result, long startNanos) {
        long millis = (System.nanoTime() - startNanos) / 1_000_000;
        send(Notifications.OPERATION_FINISHED, operation + (succeeded ? " finished: " : " failed: ") + result,
                Notifications.finished(vdb.name(), operation, succeeded, result, millis));
    }

    /** Sends progress notifications for an operation, at a bounded rate. */
    private Progress progress(String operation) {
        long[] last = {0};
        return (done, total, unit) -> {
            long now = System.nanoTime();
            if (done != total && now - last[0] < PROGRESS_INTERVAL_NANOS) {
                return;
            }
            last[0] = now;
            send(Notifications.OPERATION_PROGRESS, operation + ": " + done + (total >= 0 ? " of " + total : "")
                    + " " + unit, Notifications.progress(vdb.name(), operation, done, total, unit));
        };
    }

    /** The message and SQLState, without a cause a JMX client might not be able to load. */
    static SQLException clean(SQLException e) {
        return new SQLException(e.getMessage() + (e.getSQLState() == null ? "" : " [SQLState " + e.getSQLState() + "]"),
                e.getSQLState(), e.getErrorCode());
    }

    @Override
    public GroupDescription getGroup() {
        return vdb.group().map(g -> GroupDescription.of(g.status())).orElse(null);
    }

    @Override
    public void stepDown() throws SQLException {
        group("step down").stepDown();
    }

    @Override
    public void addGroupMember(String member) throws SQLException {
        group("add a member").addMember(member);
    }

    @Override
    public void removeGroupMember(String member) throws SQLException {
        group("remove a member").removeMember(member);
    }

    @Override
    public String[] takeOverBackends(String member) throws SQLException {
        try {
            return group("take over backends").takeOver(member).toArray(String[]::new);
        } catch (SQLException e) {
            throw clean(e);
        }
    }

    @Override
    public String[] giveBackBackends(String member) throws SQLException {
        try {
            return group("give backends back").giveBack(member).toArray(String[]::new);
        } catch (SQLException e) {
            throw clean(e);
        }
    }

    @Override
    public long compactGroupLog() throws SQLException {
        try {
            return group("compact the group's log").compactLog(Duration.ofMinutes(5));
        } catch (SQLException e) {
            throw clean(e);
        }
    }

    private GroupMember<?> group(String action) throws SQLException {
        return vdb.group().orElseThrow(() -> new SQLException("cannot " + action + ": virtual database " + vdb.name()
                + " is not distributed", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code()));
    }
}
