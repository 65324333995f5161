package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.api.BackendView;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.DeclaredTable;
import org.phalanx.requestmanager.config.PlacementRule;
import org.phalanx.requestmanager.config.ReplicationLevel;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.stats.Statistics;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.requestmanager.analysis.MacroRewriter;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.hetero.BackendStatements;
import org.phalanx.requestmanager.hetero.ControllerKeys;
import org.phalanx.requestmanager.backend.Engine;
import org.phalanx.requestmanager.api.DatabaseProduct;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.recoverylog.dump.Backuper;
import org.phalanx.recoverylog.dump.Backupers;
import org.phalanx.recoverylog.dump.DumpException;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.recoverylog.dump.PortableBackuper;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.recovery.AppliedPositions;
import org.phalanx.requestmanager.recovery.CrashRecovery;
import org.phalanx.requestmanager.recovery.Quiesce;
import org.phalanx.requestmanager.recovery.Replayer;
import org.phalanx.requestmanager.recovery.Snapshots;
import org.phalanx.requestmanager.balancer.ReadAdmission;
import org.phalanx.requestmanager.balancer.ReadBalancer;
import org.phalanx.requestmanager.stats.CacheStatistics;
import org.phalanx.requestmanager.cache.ResultCache;
import org.phalanx.requestmanager.cache.Touch;
import org.phalanx.requestmanager.routing.PartialReplication;
import org.phalanx.requestmanager.routing.Placement;
import org.phalanx.requestmanager.routing.Routing;
import org.phalanx.requestmanager.routing.SchemaLearner;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.LocalWriteOrdering;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.LockManager;
import org.phalanx.requestmanager.scheduler.WriteOrdering;

/**
 * The per-virtual-database pipeline: analysis, scheduling (locks and total order), load
 * balancing and execution on the backends. Strategies (replication level, wait policy,
 * balancing, lock granularity) come from {@link RequestManagerConfig} and are composed here.
 */
public final class RequestManager implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(RequestManager.class);

    private final String name;
    private final RequestManagerConfig config;
    private final List<Backend> backends;
    final SqlAnalyzer analyzer;
    private final MacroRewriter macros;
    final LockManager locks = new LockManager();
    final WriteOrdering ordering;
    /** Null without a recovery log. */
    final RecoveryLog log;
    /** The append of the last entry handed to the log (appends complete in order). */
    private volatile CompletableFuture<Void> lastAppend = CompletableFuture.completedFuture(null);
    /** Disabled backends whose data is exactly the log up to this position (they can be replayed). */
    private final Map<String, Long> checkpointOf = new ConcurrentHashMap<>();
    final ReadBalancer balancer;
    final ReadAdmission admission;
    final Statistics statistics = new Statistics();
    final SchemaView schema = new SchemaView();
    final Routing routing;
    /** Null when the virtual database has no result cache. */
    final ResultCache cache;
    private final boolean lockWholeDatabase;
    /** What each backend runs for a statement (portable DDL, rewriting rules) and how its rows look. */
    final BackendStatements statements;
    /** Keys chosen by the controller; null when every backend is of one engine (their counters agree). */
    final ControllerKeys keys;
    /**
     * Transaction ids never repeat across restarts (they start from the clock, in thousandths of a
     * millisecond): the log entries of a transaction a crash left open must never be taken for
     * those of a later one.
     */
    private final AtomicLong transactionIds = new AtomicLong(System.currentTimeMillis() * 1000);
    private final Set<VirtualSession> sessions = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    public RequestManager(String virtualDatabaseName, RequestManagerConfig config, List<BackendConfig> backendConfigs) {
        if (backendConfigs.isEmpty()) {
            throw new IllegalArgumentException("virtual database " + virtualDatabaseName + " has no backend");
        }
        for (PlacementRule rule : config.placementRules()) {
            for (String backend : rule.backends()) {
                if (backendConfigs.stream().noneMatch(b -> b.name().equals(backend))) {
                    throw new IllegalArgumentException((rule.location() == null ? "" : rule.location() + ": ")
                            + "placement rule names unknown backend " + backend);
                }
            }
        }
        if (config.replication() == ReplicationLevel.SINGLE_DB && backendConfigs.size() != 1) {
            throw new IllegalArgumentException("SingleDB takes exactly one backend, " + virtualDatabaseName
                    + " has " + backendConfigs.size());
        }
        this.name = virtualDatabaseName;
        this.config = config;
        this.analyzer = new SqlAnalyzer(config.analysisCacheSize());
        this.macros = new MacroRewriter(config.macroTimeZone());
        this.balancer = ReadBalancer.of(config.balancing());
        this.admission = new ReadAdmission(balancer);
        List<Backend> list = new ArrayList<>();
        // how long a request waits for a pooled connection: short, as a dead backend makes every
        // new connection attempt wait this long before it can be taken out of service
        Duration connectionTimeout = config.lockTimeout().compareTo(Duration.ofSeconds(5)) < 0
                ? config.lockTimeout() : Duration.ofSeconds(5);
        for (BackendConfig bc : backendConfigs) {
            list.add(new Backend(bc, connectionTimeout, this::backendDisabled, admission::ended));
        }
        this.backends = List.copyOf(list);
        this.statements = new BackendStatements(backends);
        for (Backend b : backends) {
            b.useStatements(statements::forBackend); // replay, crash recovery included, translates too
        }
        this.keys = statements.heterogeneous() ? new ControllerKeys() : null;
        this.routing = config.replication().isPartial()
                ? new PartialReplication(schema, new Placement(config.placementRules(), defaultPlacement(config)))
                : Routing.EVERYWHERE;
        this.log = config.recovery() == null ? null : config.recovery().log();
        this.ordering = new LocalWriteOrdering(log == null ? 0 : log.lastPosition());
        this.cache = config.cache() == null ? null : new ResultCache(config.cache(), this::pendingRequests);
        this.lockWholeDatabase = switch (config.lockGranularity()) {
            case DATABASE -> true;
            case TABLE -> false;
            case AUTO -> backends.stream().anyMatch(b -> b.engine().locksWholeDatabase);
        };
    }

    /**
     * The database product this virtual database speaks: that of its backends when they all
     * speak one engine's SQL (another controller speaks its backends'), else null. Known from
     * the backends enabled so far.
     */
    public DatabaseProduct product() {
        DatabaseProduct first = null;
        for (Backend b : backends) {
            DatabaseProduct p = b.product();
            if (p == null) {
                continue;
            }
            if (first == null) {
                first = p;
            } else if (!sameSql(first, p)) {
                return null;
            }
        }
        return first;
    }

    private static boolean sameSql(DatabaseProduct a, DatabaseProduct b) {
        Engine engine = Engine.ofProduct(a.name());
        return engine == Engine.OTHER ? a.name().equals(b.name()) : engine == Engine.ofProduct(b.name());
    }

    public String name() {
        return name;
    }

    public RequestManagerConfig config() {
        return config;
    }

    /** Without a matching rule, RAIDb-2 puts a new table everywhere and RAIDb-0 on one backend in turn. */
    private static PlacementRule defaultPlacement(RequestManagerConfig config) {
        return config.replication() == ReplicationLevel.RAIDB_0
                ? new PlacementRule(null, PlacementRule.Policy.ROUND_ROBIN, List.of(), 1, null)
                : new PlacementRule(null, PlacementRule.Policy.ALL, List.of(), 0, null);
    }

    /**
     * Connects to every backend and learns its tables; those that answer are enabled, the others
     * stay disabled (logged).
     *
     * @throws SQLException when a table declared in the configuration is missing from its backend
     */
    public void start() throws SQLException {
        List<String> contradictions = new ArrayList<>();
        Map<String, String> states = log == null ? Map.of() : log.states();
        long last = log == null ? 0 : log.lastPosition();
        List<Backend> behind = new ArrayList<>();
        List<Backend> crashed = new ArrayList<>();
        for (Backend b : backends) {
            String state = states.get(stateKey(b));
            Long synced = state != null && state.startsWith(SYNCED_AT) ? Long.parseLong(state.substring(SYNCED_AT.length())) : null;
            boolean enableNow;
            if (log == null || (state == null && last == 0)) {
                enableNow = true; // no log, or a new virtual database
            } else if (state == null) {
                // added to a virtual database with history: its data must come from a dump first
                enableNow = false;
            } else if (state.equals(ENABLED)) {
                crashed.add(b); // the controller did not stop cleanly: checked against the log below
                continue;
            } else if (synced != null) {
                checkpointOf.put(b.name(), synced);
                enableNow = config.recovery().enableSyncedOnStart() && synced == last;
                if (config.recovery().enableSyncedOnStart() && synced < last) {
                    behind.add(b); // stopped behind the log: replayed below
                }
            } else {
                if (state.startsWith(DISABLED_AT)) {
                    checkpointOf.put(b.name(), Long.parseLong(state.substring(DISABLED_AT.length())));
                }
                enableNow = false;
            }
            if (!enableNow) {
                schema.learn(b, declaredTables(b));
                LOG.warn("virtual database {}: backend {} stays disabled ({})", name, b.name(),
                        state == null ? "new backend: restore a dump onto it" : state);
                continue;
            }
            try {
                if (recordsApplied(b)) {
                    resetApplied(b, last); // it holds exactly the log up to its end
                }
                b.enable();
                learnSchema(b, contradictions);
                checkpointOf.remove(b.name());
                saveState(b, ENABLED);
            } catch (SQLException e) {
                LOG.error("virtual database {}: backend {} could not be enabled: {}", name, b.name(), e.getMessage());
                schema.learn(b, declaredTables(b));
                if (synced != null) {
                    saveState(b, DISABLED_AT + synced); // still replayable from where it stopped
                } else if (log != null) {
                    checkpointOf.remove(b.name());
                    saveFailed(b);
                }
            }
        }
        if (!crashed.isEmpty()) {
            recoverAfterCrash(crashed, last, contradictions);
        }
        if (!contradictions.isEmpty()) {
            throw new SQLException(String.join("\n", contradictions), "XX000");
        }
        if (log != null) {
            lastFloorRaise = last;
            startCheckpointSchedule();
        }
        for (Backend b : behind) {
            try {
                enableBackend(b.name());
            } catch (SQLException e) {
                LOG.error("virtual database {}: backend {} could not catch up: {}", name, b.name(), e.getMessage());
            }
        }
        if (enabledBackends().isEmpty()) {
            LOG.error("virtual database {} has no enabled backend: every request will fail", name);
        }
    }

    /**
     * After a crash, the backends that were enabled get by replay exactly the logged units they
     * lack (see {@link CrashRecovery}) and are enabled; one that cannot be proven to hold the
     * logged state stays disabled as failed.
     */
    private void recoverAfterCrash(List<Backend> crashed, long last, List<String> contradictions) throws SQLException {
        LOG.warn("virtual database {}: the controller did not stop cleanly; checking backends {} against the"
                + " recovery log (last position {})", name, crashed, last);
        for (Backend b : crashed) {
            b.recoveryState(BackendState.REPLAYING);
        }
        Map<Backend, CrashRecovery.Outcome> outcomes = CrashRecovery.recover(crashed, log, last,
                new CrashRecovery.LogAppender() {
                    @Override
                    public void failed(long position) {
                        logFailed(position, null);
                    }

                    @Override
                    public void rolledBack(long transactionId, String login, Set<String> backendNames) {
                        CompletableFuture<?>[] f = new CompletableFuture<?>[1];
                        ordering.order(position -> f[0] = log(LogEntry.rollback(position, transactionId, login,
                                backendNames)));
                        awaitLogged(f[0]);
                    }
                });
        for (Backend b : crashed) {
            b.recoveryState(BackendState.DISABLED);
            CrashRecovery.Outcome outcome = outcomes.get(b);
            if (outcome instanceof CrashRecovery.Outcome.Recovered r) {
                try {
                    b.enable();
                    learnSchema(b, contradictions);
                    saveState(b, ENABLED);
                    LOG.info("virtual database {}: backend {} recovered after the crash ({} missing units replayed)",
                            name, b.name(), r.replayed());
                    continue;
                } catch (SQLException e) {
                    outcome = new CrashRecovery.Outcome.Failed("it could not be enabled: " + e.getMessage());
                }
            }
            String reason = ((CrashRecovery.Outcome.Failed) outcome).reason();
            schema.learn(b, declaredTables(b));
            checkpointOf.remove(b.name());
            saveFailed(b);
            LOG.error("virtual database {}: backend {} stays disabled (failed) after the crash: {}. Restore a dump of"
                    + " an up-to-date backend onto it, then enable it (docs/operations.md, 'Replacing a failed backend')",
                    name, b.name(), reason);
        }
    }

    private static final String ENABLED = "enabled";
    private static final String SYNCED_AT = "synced@";
    private static final String DISABLED_AT = "disabled@";
    private static final String FAILED = "failed";

    private static String stateKey(Backend b) {
        return "backend." + b.name();
    }

    /** Failed: only a restored dump brings it back, so its record (and the log it needs) no longer matter. */
    private void saveFailed(Backend b) {
        if (log != null) {
            saveState(b, FAILED);
            log.removeCheckpoint(appliedCheckpoint(b));
        }
    }

    private void saveState(Backend b, String state) {
        if (log != null) {
            log.putState(stateKey(b), state);
        }
    }

    private void learnSchema(Backend b, List<String> contradictions) throws SQLException {
        Set<String> tables;
        try (java.sql.Connection c = b.connection(b.config().credentials())) {
            tables = SchemaLearner.tables(c);
        }
        for (DeclaredTable declared : b.config().tables()) {
            if (!tables.contains(declared.name())) {
                contradictions.add((declared.location() == null ? "" : declared.location() + ": ") + "backend "
                        + b.name() + " has no table " + declared.name() + " (it holds: "
                        + (tables.isEmpty() ? "no tables" : String.join(", ", new java.util.TreeSet<>(tables))) + ")");
            }
        }
        schema.learn(b, tables);
    }

    private static Set<String> declaredTables(Backend b) {
        Set<String> names = new HashSet<>();
        for (DeclaredTable t : b.config().tables()) {
            names.add(t.name());
        }
        return names;
    }

    public Session openSession(String virtualUser) throws SQLException {
        if (closed) {
            throw new SQLException("virtual database " + name + " is shutting down", "57P03");
        }
        VirtualSession s = new VirtualSession(this, virtualUser);
        sessions.add(s);
        return s;
    }

    void sessionClosed(VirtualSession s) {
        sessions.remove(s);
    }

    /** Backend name to state, in configuration order. */
    public Map<String, BackendState> backendStates() {
        Map<String, BackendState> states = new LinkedHashMap<>();
        for (Backend b : backends) {
            states.put(b.name(), b.state());
        }
        return states;
    }

    /** The backends, in configuration order, as management sees them. */
    public List<BackendView> backends() {
        return List.copyOf(backends);
    }

    public Statistics.Snapshot statistics() {
        return statistics.snapshot(analyzer.unparsedCount());
    }

    /** The statement templates run most often, with their counts, errors, times and cache hits. */
    public List<org.phalanx.requestmanager.stats.StatementStatistics.Snapshot> topStatements(int n) {
        return statistics.statements().top(n);
    }

    /** Tells the listener about every backend state change from now on (management notifications). */
    public void addBackendListener(org.phalanx.requestmanager.api.BackendListener listener) {
        for (Backend b : backends) {
            b.addListener(listener);
        }
    }

    /** Client sessions open on this virtual database. */
    public int openSessions() {
        return sessions.size();
    }

    /** Sessions with a transaction open on some backend. */
    public int openTransactions() {
        int open = 0;
        for (VirtualSession s : sessions) {
            if (s.hasOpenTransaction()) {
                open++;
            }
        }
        return open;
    }

    List<Backend> enabledBackends() {
        List<Backend> enabled = new ArrayList<>(backends.size());
        for (Backend b : backends) {
            if (b.isEnabled()) {
                enabled.add(b);
            }
        }
        return enabled;
    }

    SQLException noBackend() {
        return new SQLException("virtual database " + name + " has no enabled backend", "08006");
    }

    long nextTransactionId() {
        return transactionIds.incrementAndGet();
    }

    long lockTimeoutMillis() {
        return config.lockTimeout().toMillis();
    }

    /**
     * What a write locks and orders against: the tables it writes, exclusively, and the tables it
     * only reads, shared. The tables it reads count: INSERT ... SELECT must see the same rows on
     * every backend, so no write of its source may come between on one backend only; but two
     * statements that only read the same table do not conflict. A write that names no table it
     * writes (a function call, say) may change what it reads: those are written then.
     */
    Access lockResources(SqlAnalysis a) {
        if (lockWholeDatabase || a.allTables()) {
            return Access.EVERYTHING;
        }
        if (a.writtenTables().isEmpty()) {
            return a.readTables().isEmpty() ? Access.EVERYTHING : Access.writing(a.readTables());
        }
        return Access.of(a.readTables(), a.writtenTables());
    }

    /** Requests in progress over all backends (load for load-triggered relaxed caching, management). */
    public int pendingRequests() {
        int sum = 0;
        for (Backend b : backends) {
            sum += b.pending();
        }
        return sum;
    }

    /** Auto-commit reads waiting at the controller for a backend under its maxPending (management). */
    public int readsWaitingForRoom() {
        return admission.waiting();
    }

    /** The result cache's counters, or null without a cache. */
    public CacheStatistics cacheStatistics() {
        return cache == null ? null : cache.statistics();
    }

    /** Operator action: empty the result cache. */
    public void flushCache() {
        if (cache != null) {
            cache.flush();
        }
    }

    /** What a read depends on, for the cache: its footprint, or its whole tables. */
    static List<Touch> readTouches(SqlAnalysis a, List<Object> params) {
        List<Touch> touches = Touch.of(a.footprint(), params);
        if (touches != null) {
            return touches;
        }
        List<Touch> whole = new ArrayList<>();
        for (String t : a.readTables()) {
            whole.add(Touch.wholeTable(SchemaView.key(t), false));
        }
        return whole;
    }

    /** What a write may change, for the cache; null when it may change anything. */
    static List<Touch> writeTouches(SqlAnalysis a, List<Object> params) {
        if (a.kind() == StatementKind.DDL || a.allTables()) {
            return null;
        }
        List<Touch> touches = Touch.of(a.footprint(), params);
        if (touches != null) {
            return touches;
        }
        List<Touch> whole = new ArrayList<>();
        for (String t : a.writtenTables()) {
            whole.add(Touch.wholeTable(SchemaView.key(t), true));
        }
        return whole;
    }

    /** Called inside the write ordering, after a write or commit is queued everywhere, before its reply. */
    void invalidateCache(List<Touch> writes) {
        if (cache != null) {
            cache.invalidate(writes);
        }
    }

    /** What a read must find applied on a backend before the cache may store its rows. */
    Collection<String> readResources(SqlAnalysis a) {
        if (lockWholeDatabase) {
            return Set.of(LockManager.ALL);
        }
        return a.readTables();
    }

    String rewriteMacros(String sql) {
        return macros.rewrite(sql, Instant.now(), () -> ThreadLocalRandom.current().nextDouble());
    }

    /** Whether a backend records the positions it applies ({@link AppliedPositions}): with a recovery log. */
    boolean recordsApplied(Backend b) {
        return log != null && b.engine() != org.phalanx.requestmanager.backend.Engine.PHALANX;
    }

    /** Sets a backend's record to "everything up to {@code position} applied, nothing after". */
    private void resetApplied(Backend b, long position) throws SQLException {
        try (Connection c = b.connection(b.config().credentials())) {
            AppliedPositions.reset(c, position);
        }
        log.setCheckpoint(appliedCheckpoint(b), position);
    }

    /** The checkpoint at a backend's record floor: a purge keeps what its crash recovery would read. */
    private static String appliedCheckpoint(Backend b) {
        return "applied-" + b.name();
    }

    /**
     * Positions of units a backend failed, until they are known to have failed everywhere: its
     * floor must not pass them (if it diverged, it is being disabled).
     */
    private final Map<Backend, java.util.concurrent.ConcurrentSkipListSet<Long>> unsettledFailures =
            new ConcurrentHashMap<>();

    /** A unit (auto-commit write or commit) failed on a backend. */
    void unitFailed(Backend b, long position) {
        if (recordsApplied(b)) {
            unsettledFailures.computeIfAbsent(b, k -> new java.util.concurrent.ConcurrentSkipListSet<>()).add(position);
        }
    }

    private void backendDisabled(Backend b) {
        // a failed backend's position is unknown: only a restored dump brings it back
        checkpointOf.remove(b.name());
        unsettledFailures.remove(b);

        saveFailed(b);
        if (enabledBackends().isEmpty()) {
            LOG.error("virtual database {} has no enabled backend left", name);
        }
    }

    // ------------------------------------------------------------------ recovery log

    /** Hands an entry to the recovery log; call inside the write ordering (entries must arrive in order). */
    CompletableFuture<Void> log(LogEntry entry) {
        if (log == null) {
            return lastAppend;
        }
        CompletableFuture<Void> f = log.appendAsync(entry);
        lastAppend = f;
        long every = config.recovery().checkpointEveryWrites();
        if (every > 0 && entry.position() % every == 0) {
            scheduledCheckpoint(); // not here, inside the ordering: on its own thread
        } else if ((every <= 0 || every > FLOOR_EVERY) && entry.position() - lastFloorRaise >= FLOOR_EVERY) {
            lastFloorRaise = entry.position(); // once
            onCheckpointThread(this::raiseFloorsNow);
        }
        return f;
    }

    /** The checkpoint schedule's thread (null without a recovery log). */
    private java.util.concurrent.ScheduledExecutorService checkpointer;

    private void startCheckpointSchedule() {
        checkpointer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "phalanx-checkpoints-" + name);
            t.setDaemon(true);
            return t;
        });
        Duration every = config.recovery().checkpointEvery();
        if (every != null && !every.isZero()) {
            checkpointer.scheduleAtFixedRate(this::scheduledCheckpoint, every.toMillis(), every.toMillis(),
                    java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    /** Takes the scheduled checkpoint "auto" (replacing the previous one) on the schedule's thread. */
    private void scheduledCheckpoint() {
        onCheckpointThread(() -> {
            try {
                long position = checkpoint("auto");
                LOG.debug("virtual database {}: scheduled checkpoint at {}", name, position);
            } catch (SQLException | RuntimeException e) {
                LOG.warn("virtual database {}: scheduled checkpoint failed: {}", name, e.getMessage());
            }
        });
    }

    private void onCheckpointThread(Runnable task) {
        java.util.concurrent.ScheduledExecutorService s = checkpointer;
        if (s == null || s.isShutdown()) {
            return;
        }
        try {
            s.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            // shutting down
        }
    }

    /** Records that the write at that position failed on every backend (replay may see it fail too). */
    void logFailed(long failedPosition, String user) {
        if (log == null) {
            return;
        }
        for (java.util.concurrent.ConcurrentSkipListSet<Long> failed : unsettledFailures.values()) {
            failed.remove(failedPosition); // failed everywhere: no backend lacks it
        }
        CompletableFuture<?>[] f = new CompletableFuture<?>[1];
        ordering.order(position -> f[0] = log(LogEntry.failed(position, failedPosition, user)));
        awaitLogged(f[0]);
    }

    /** Waits until an entry is durable; the client must not be answered before. */
    static void awaitLogged(CompletableFuture<?> appended) {
        if (appended != null) {
            appended.join();
        }
    }

    public boolean hasRecoveryLog() {
        return log != null;
    }

    /** The write ordering's last position (also the recovery log's, once appends are durable). */
    public long lastPosition() {
        return ordering.lastPosition();
    }

    /** The checkpoint a disabled backend can be replayed from, if any. */
    public Optional<Long> checkpointOf(String backendName) {
        return Optional.ofNullable(checkpointOf.get(backendName));
    }

    /** Blocks new writes (the whole-database lock) until closed; writing transactions in progress finish first. */
    private Quiesce quiesce() throws SQLException {
        long id = nextTransactionId();
        try {
            locks.acquire(id, Access.EVERYTHING, Math.max(lockTimeoutMillis(), 60_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for writes to pause", "HY008", e);
        }
        return () -> locks.releaseAll(id);
    }

    /** With writes quiesced: waits until the backend has run everything queued and the log holds it all. */
    private long drained(Backend b) throws SQLException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (!b.caughtUp(Set.of(LockManager.ALL))) {
            if (System.nanoTime() > deadline) {
                throw new SQLException("backend " + b.name() + " did not finish its queued writes", "57014");
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", "HY008", e);
            }
        }
        awaitLogged(lastAppend);
        return ordering.lastPosition();
    }

    private void requireLog(String what) throws SQLException {
        if (log == null) {
            throw new SQLException("virtual database " + name + " has no recovery log: cannot " + what, "55000");
        }
    }

    private Backend backend(String backendName) throws SQLException {
        for (Backend b : backends) {
            if (b.name().equals(backendName)) {
                return b;
            }
        }
        throw new SQLException("virtual database " + name + " has no backend " + backendName, "42704");
    }

    /** Records a named checkpoint at the current position (writes pause while it is taken). */
    public long checkpoint(String checkpointName) throws SQLException {
        requireLog("take a checkpoint");
        try (Quiesce q = quiesce()) {
            awaitLogged(lastAppend);
            long position = ordering.lastPosition();
            log.setCheckpoint(checkpointName, position);
            raiseFloors(position);
            return position;
        }
    }

    /**
     * With writes quiesced (no transaction open, everything up to {@code position} queued): once
     * each enabled backend has run what is queued, everything up to {@code position} is applied
     * there, and its record's floor is raised to it (on the checkpoint thread, not holding writes).
     */
    private void raiseFloors(long position) {
        lastFloorRaise = position;
        for (Backend b : enabledBackends()) {
            if (!recordsApplied(b)) {
                continue;
            }
            b.queuedSoFar().thenRun(() -> onCheckpointThread(() -> raiseFloor(b, position)));
        }
    }

    private void raiseFloor(Backend b, long position) {
        java.util.concurrent.ConcurrentSkipListSet<Long> failed = unsettledFailures.get(b);
        if (!b.isEnabled() || (failed != null && !failed.isEmpty() && failed.first() <= position)) {
            return; // it may lack a unit up to there: keep the floor where it is
        }
        try (Connection c = b.connection(b.config().credentials())) {
            AppliedPositions.raiseFloor(c, position);
            log.setCheckpoint(appliedCheckpoint(b), position); // after: the log may keep more, never less
        } catch (SQLException | RuntimeException e) {
            LOG.warn("virtual database {}: backend {}: its record of applied positions was not trimmed: {}",
                    name, b.name(), e.getMessage());
        }
    }

    /** The position floors were last raised to (a checkpoint's, or a floor-only pause's). */
    private volatile long lastFloorRaise;
    /** Without a checkpoint this often (in positions), floors are raised on their own, so the record stays small. */
    private static final long FLOOR_EVERY = 10_000;

    /** Raises the floors with writes paused for an instant, as a checkpoint does but recording nothing in the log. */
    private void raiseFloorsNow() {
        try (Quiesce q = quiesce()) {
            awaitLogged(lastAppend);
            raiseFloors(ordering.lastPosition());
        } catch (SQLException | RuntimeException e) {
            LOG.warn("virtual database {}: applied positions were not trimmed: {}", name, e.getMessage());
        }
    }

    /** Drops a named checkpoint (a deleted dump's), so purge may pass it. */
    public void removeCheckpoint(String checkpointName) throws SQLException {
        requireLog("remove a checkpoint");
        log.removeCheckpoint(checkpointName);
    }

    /** Deletes log entries older than the oldest checkpoint; returns how many. */
    public long purgeLog() throws SQLException {
        requireLog("purge the log");
        return log.purge();
    }

    /**
     * Replays the log onto a disabled backend from its checkpoint while the others keep serving,
     * then, with writes paused for the final catch-up only, puts it back in service.
     */
    public void enableBackend(String backendName) throws SQLException {
        Backend b = backend(backendName);
        if (b.isEnabled()) {
            return;
        }
        if (log == null) {
            b.enable(); // nothing to catch up from: the operator vouches for it
            return;
        }
        Long from = checkpointOf.get(backendName);
        if (from == null) {
            throw new SQLException("backend " + backendName + " has no checkpoint to replay from (it failed):"
                    + " restore a dump onto it first", "55000");
        }
        b.recoveryState(BackendState.REPLAYING);
        try (Replayer replay = new Replayer(b, log, from, e -> appliesTo(b, e), recordsApplied(b))) {
            if (recordsApplied(b)) {
                resetApplied(b, from); // its data is the log up to its checkpoint; replay records the rest
            }
            awaitLogged(lastAppend);
            replay.replayUntil(ordering.lastPosition());
            try (Quiesce q = quiesce()) {
                awaitLogged(lastAppend);
                replay.replayUntil(ordering.lastPosition());
                replay.finish();
                b.enable();
                List<String> contradictions = new ArrayList<>();
                learnSchema(b, contradictions);
            }
            checkpointOf.remove(backendName);
            log.removeCheckpoint("backend-" + backendName); // no longer needed: purge may pass it
            saveState(b, ENABLED);
        } catch (SQLException | RuntimeException e) {
            b.recoveryState(BackendState.DISABLED);
            checkpointOf.remove(backendName); // partly replayed: its position is no longer the checkpoint
            saveFailed(b);
            throw e;
        }
    }

    /** Under partial replication a backend replays only writes on tables it holds. */
    private boolean appliesTo(Backend b, LogEntry e) {
        if (!config.replication().isPartial()) {
            return true;
        }
        SqlAnalysis a = analyzer.analyze(e.sql());
        if (a.allTables() || a.ddl() != null) {
            return true;
        }
        for (String t : a.writtenTables()) {
            if (!schema.holds(b, t)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes a backend out of service at a checkpoint: writes pause until it has applied everything
     * queued, so its data is exactly the log up to that position and it can be replayed later.
     */
    public void disableBackend(String backendName) throws SQLException {
        Backend b = backend(backendName);
        if (!b.isEnabled()) {
            return;
        }
        if (log == null) {
            b.disableByOperator();
            return;
        }
        try (Quiesce q = quiesce()) {
            long position = drained(b);
            b.disableByOperator();
            checkpointOf.put(backendName, position);
            log.setCheckpoint("backend-" + backendName, position);
            log.removeCheckpoint(appliedCheckpoint(b)); // replay from its own checkpoint resets the record
            saveState(b, DISABLED_AT + position);
        }
    }

    /**
     * Dumps a backend. An enabled backend is dumped from a snapshot taken with writes paused for
     * an instant, so it keeps serving; a disabled one must have a checkpoint.
     */
    public DumpInfo backup(String backendName, Path dumpFile, String format, Progress progress) throws SQLException {
        requireLog("take a dump");
        progress = progress == null ? Progress.NONE : progress;
        Backend b = backend(backendName);
        Backuper backuper = backuper(format);
        Connection c = b.connection(b.config().credentials());
        Quiesce paused = null;
        try {
            long position;
            if (b.isEnabled()) {
                paused = quiesce();
                position = drained(b);
                if (b.engine().holdsReadSnapshots) {
                    Snapshots.begin(c, b.dialect());
                    paused.close(); // the snapshot keeps the dump consistent while writes go on
                    paused = null;
                }
                // otherwise (another controller) writes stay paused until the dump is written
            } else {
                Long checkpoint = checkpointOf.get(backendName);
                if (checkpoint == null || b.state() != BackendState.DISABLED) {
                    throw new SQLException("backend " + backendName + " is " + b.state()
                            + " without a checkpoint: its data cannot be placed in the log", "55000");
                }
                position = checkpoint;
                c.setAutoCommit(false);
            }
            String checkpointName = "dump-" + dumpFile.getFileName();
            log.setCheckpoint(checkpointName, position);
            return backuper.backup(c, dumpFile, checkpointName, position, progress);
        } catch (DumpException e) {
            throw new SQLException("dump of backend " + backendName + " failed: " + e.getMessage(), "58030", e);
        } finally {
            if (paused != null) {
                paused.close();
            }
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the pool resets it
            }
            c.close();
        }
    }

    /**
     * Restores a dump onto a disabled backend; {@link #enableBackend} then replays from the dump's
     * checkpoint. Refuses a backend whose tables hold data unless forced.
     */
    public DumpInfo restore(String backendName, Path dumpFile, boolean force, Progress progress) throws SQLException {
        requireLog("restore a dump");
        progress = progress == null ? Progress.NONE : progress;
        Backend b = backend(backendName);
        if (b.state() != BackendState.DISABLED) {
            throw new SQLException("backend " + backendName + " is " + b.state() + ": disable it first", "55000");
        }
        b.recoveryState(BackendState.RESTORING);
        try {
            DumpInfo info = Backupers.verify(dumpFile, progress);
            try (Connection c = b.connection(b.config().credentials())) {
                backuper(info.format()).restore(dumpFile, c, force, progress);
            }
            checkpointOf.put(backendName, info.checkpointPosition());
            log.setCheckpoint("backend-" + backendName, info.checkpointPosition()); // purge must keep what it needs
            saveState(b, DISABLED_AT + info.checkpointPosition());
            return info;
        } catch (DumpException e) {
            checkpointOf.remove(backendName);
            saveFailed(b);
            throw new SQLException("restore onto backend " + backendName + " failed: " + e.getMessage(), "58030", e);
        } finally {
            b.recoveryState(BackendState.DISABLED);
        }
    }

    private static Backuper backuper(String format) throws SQLException {
        try {
            return Backupers.forFormat(format == null ? PortableBackuper.FORMAT : format);
        } catch (DumpException e) {
            throw new SQLException(e.getMessage(), "22023", e);
        }
    }

    /** Stops accepting new requests, waits up to the timeout for those in flight, closes backends. */
    public void shutdown(Duration wait) {
        if (closed) {
            return;
        }
        closed = true;
        if (checkpointer != null) {
            checkpointer.shutdownNow();
        }
        for (VirtualSession s : List.copyOf(sessions)) {
            s.close();
        }
        for (Backend b : backends) {
            b.close(wait);
        }
        if (log != null) {
            long last = ordering.lastPosition();
            for (Backend b : backends) {
                if (b.isEnabled() && b.pending() == 0) {
                    saveState(b, SYNCED_AT + last);
                }
            }
            log.close();
        }
        LOG.info("virtual database {} shut down", name);
    }

    @Override
    public void close() {
        shutdown(Duration.ofSeconds(10));
    }
}
