package org.phalanx.requestmanager;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.recoverylog.dump.PortableBackuper;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.requestmanager.analysis.MacroRewriter;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.api.BackendListener;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.BackendView;
import org.phalanx.requestmanager.api.DatabaseProduct;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.Backends;
import org.phalanx.requestmanager.backend.HangDetector;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.balancer.ReadAdmission;
import org.phalanx.requestmanager.balancer.ReadBalancer;
import org.phalanx.requestmanager.cache.CacheStage;
import org.phalanx.requestmanager.cache.ResultCache;
import org.phalanx.requestmanager.cache.ResultCacheStage;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.LockGranularity;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.distribution.PrimaryDatabase;
import org.phalanx.requestmanager.exec.BackendReads;
import org.phalanx.requestmanager.exec.ResultDescriptions;
import org.phalanx.requestmanager.hetero.BackendStatements;
import org.phalanx.requestmanager.hetero.CaseSensitiveLike;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.recovery.BackendAdministration;
import org.phalanx.requestmanager.routing.DeclaredDialectReads;
import org.phalanx.requestmanager.routing.PartialReplication;
import org.phalanx.requestmanager.routing.Placement;
import org.phalanx.requestmanager.routing.Routing;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.LocalWriteOrdering;
import org.phalanx.requestmanager.scheduler.Scheduler;
import org.phalanx.requestmanager.session.Sessions;
import org.phalanx.requestmanager.stats.CacheStatistics;
import org.phalanx.requestmanager.stats.StatementStatistics;
import org.phalanx.requestmanager.stats.Statistics;
import org.phalanx.requestmanager.verify.ActionGate;
import org.phalanx.requestmanager.verify.VerificationProgress;
import org.phalanx.requestmanager.verify.VerificationReport;
import org.phalanx.requestmanager.verify.VerificationRequest;
import org.phalanx.requestmanager.verify.Verifications;
import org.phalanx.requestmanager.write.ChosenKeys;

/**
 * One virtual database's request manager: builds the stages of its request path from the
 * configuration (replication level, wait policy, balancing, lock granularity, cache and recovery
 * log are independent strategies composed here, see {@link Pipeline}) and is the facade the
 * controller uses: sessions, backend administration, management figures, shutdown.
 */
public final class RequestManager implements PrimaryDatabase, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(RequestManager.class);

    private final String name;
    private final RequestManagerConfig config;
    private final Backends backends;
    private final Pipeline pipeline;
    private final BackendAdministration admin;
    private final Sessions sessions;
    private final HangDetector hangDetector;
    private final Verifications verifications;
    private volatile boolean closed;

    public RequestManager(String virtualDatabaseName, RequestManagerConfig config, List<BackendConfig> backendConfigs) {
        config.validate(virtualDatabaseName, backendConfigs);
        this.name = virtualDatabaseName;
        this.config = config;
        ReadBalancer balancer = ReadBalancer.of(config.balancing());
        ReadAdmission admission = new ReadAdmission(balancer);
        // how long a request waits for a pooled connection: short, as a dead backend makes every
        // new connection attempt wait this long before it can be taken out of service
        Duration connectionTimeout = config.lockTimeout().compareTo(Duration.ofSeconds(5)) < 0
                ? config.lockTimeout() : Duration.ofSeconds(5);
        List<Backend> list = new ArrayList<>();
        for (BackendConfig bc : backendConfigs) {
            list.add(new Backend(CaseSensitiveLike.forDialect(bc, config.sqlDialect()), connectionTimeout, this::backendFailed,
                    admission::ended));
        }
        this.backends = new Backends(name, list);
        this.hangDetector = new HangDetector(list);
        BackendStatements statements = new BackendStatements(name, backends.all(), config.sqlDialect(), config.analysisCacheSize());
        for (Backend b : backends.all()) {
            b.useStatements(statements::forBackend); // replay, crash recovery included, translates too
        }
        SchemaView schema = new SchemaView();
        Routing routing = config.replication().isPartial()
                ? new PartialReplication(schema, Placement.of(config.replication(), config.placementRules()))
                : Routing.EVERYWHERE;
        if (statements.translates()) {
            routing = new DeclaredDialectReads(routing, config.sqlDialect());
        }
        LockGranularity granularity = granularity(config.lockGranularity(), backends.all());
        long lastLogged = config.recovery() == null ? 0 : config.recovery().log().lastPosition();
        Scheduler scheduler = new Scheduler(new LocalWriteOrdering(lastLogged), granularity == LockGranularity.DATABASE,
                granularity == LockGranularity.KEY, config.lockTimeout());
        SqlAnalyzer analyzer = new SqlAnalyzer(config.analysisCacheSize());
        this.admin = new BackendAdministration(name, backends, config.recovery(), scheduler, schema, analyzer,
                config.replication().isPartial());
        ResultDescriptions descriptions = config.keepsResultDescriptions() ? new ResultDescriptions() : ResultDescriptions.NONE;
        BackendReads reads = new BackendReads(statements, descriptions);
        CacheStage cache = config.cache() == null ? CacheStage.NONE : new ResultCacheStage(
                new ResultCache(config.cache(), backends::pending), backends, routing, scheduler, admission, reads);
        this.pipeline = new Pipeline(name, backends, analyzer, new MacroRewriter(config.macroTimeZone()), scheduler,
                cache, routing, balancer, admission, statements, reads, config.waitPolicy(), config.readRouting(),
                admin.logWriter(),
                admin.applied(), new Statistics(), descriptions);
        this.verifications = new Verifications(name, backends, scheduler, admin,
                config.replication().isPartial());
        this.sessions = new Sessions(pipeline,
                controllerChoosesKeys(config, statements, backends.all())
                        ? new ChosenKeys.Controller(scheduler, !statements.translates() && backends.all().stream()
                                .allMatch(b -> b.engine() == Engine.POSTGRESQL))
                        : ChosenKeys.NONE,
                defaultIsolation(config, backends.all()));
    }

    /**
     * Whether the controller chooses the keys of INSERTs that leave out a generated key, so that the
     * recovery log carries them (docs/heterogeneous.md, Generated keys): over engines whose counters
     * disagree, and wherever a backend may replay inserts its engine's counter has already counted —
     * with a recovery log (a backend enabled again after it failed mid-transaction, a unit in flight
     * at a crash, a group's followers) over engines whose keys do not follow transactions.
     */
    private static boolean controllerChoosesKeys(RequestManagerConfig config, BackendStatements statements,
                                                 List<Backend> backends) {
        return statements.heterogeneous() || config.recovery() != null
                && backends.stream().anyMatch(b -> !b.engine().keysFollowTransactions());
    }

    /**
     * AUTO: the whole database where an engine (SQLite, another controller, one we do not know)
     * allows one writing transaction at a time; else rows, where every backend locks rows.
     */
    private static LockGranularity granularity(LockGranularity configured, List<Backend> backends) {
        if (configured != LockGranularity.AUTO) {
            return configured;
        }
        if (backends.stream().anyMatch(b -> b.engine().locksWholeDatabase())) {
            return LockGranularity.DATABASE;
        }
        return LockGranularity.KEY;
    }

    /**
     * The isolation level of a session that asks for none: the configured one, else what one
     * database of the backends' engine gives by default (the weakest, for a mix).
     */
    private static int defaultIsolation(RequestManagerConfig config, List<Backend> backends) {
        if (config.defaultIsolation() != 0) {
            return config.defaultIsolation();
        }
        return backends.stream().mapToInt(b -> b.engine().defaultIsolation()).min()
                .orElse(java.sql.Connection.TRANSACTION_READ_COMMITTED);
    }

    /** The isolation level of a session that asks for none. */
    public int defaultIsolation() {
        return sessions.defaultIsolation();
    }

    /** A backend the request path took out of service because it failed. */
    private void backendFailed(Backend b) {
        admin.backendFailed(b);
    }

    public String name() {
        return name;
    }

    public RequestManagerConfig config() {
        return config;
    }

    /**
     * Connects to every backend and learns its tables; those that answer are enabled, the others
     * stay disabled (logged). After a crash the backends are first checked against the log.
     *
     * @throws SQLException when a table declared in the configuration is missing from its backend
     */
    public void start() throws SQLException {
        admin.start();
    }

    public Session openSession(String virtualUser) throws SQLException {
        return sessions.open(virtualUser);
    }

    // ---------------------------------------------------------------- backend administration

    public void enableBackend(String backendName) throws SQLException {
        admin.enableBackend(backendName);
    }

    public void disableBackend(String backendName) throws SQLException {
        admin.disableBackend(backendName);
    }

    public long checkpoint(String checkpointName) throws SQLException {
        return admin.checkpoint(checkpointName);
    }

    public void removeCheckpoint(String checkpointName) throws SQLException {
        admin.removeCheckpoint(checkpointName);
    }

    public long purgeLog() throws SQLException {
        return admin.purgeLog();
    }

    public DumpInfo backup(String backendName, Path dumpFile, String format, Progress progress) throws SQLException {
        return admin.backup(backendName, dumpFile, format, progress);
    }

    public DumpInfo restore(String backendName, Path dumpFile, boolean force, Progress progress) throws SQLException {
        return admin.restore(backendName, dumpFile, force, progress);
    }

    /**
     * Dumps the first enabled backend (portable format) for the group's compacted log — under
     * partial replication the union of the enabled backends, none of which holds every table; its
     * checkpoint is left to the group member, which keeps the log after it under a name of its own.
     */
    @Override
    public long dump(Path dumpFile) throws SQLException {
        if (config.replication().isPartial()) {
            return admin.dumpUnion(dumpFile);
        }
        String source = backendStates().entrySet().stream().filter(e -> e.getValue() == BackendState.ENABLED)
                .map(Map.Entry::getKey).findFirst()
                .orElseThrow(() -> new SQLException("virtual database " + name + " has no enabled backend to dump",
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code()));
        DumpInfo info = admin.backup(source, dumpFile, PortableBackuper.FORMAT, Progress.NONE);
        admin.removeCheckpoint(info.checkpointName());
        return info.checkpointPosition();
    }

    @Override
    public void adoptBackend(String backendName) throws SQLException {
        admin.adoptBackend(backendName);
    }

    @Override
    public void releaseBackend(String backendName, String owner) throws SQLException {
        admin.releaseBackend(backendName, owner);
    }

    /** The checkpoint a disabled backend can be replayed from, if any. */
    @Override
    public void relearnSchema() throws SQLException {
        admin.relearnSchema();
    }

    /**
     * The backends that left service to be caught up (a lost connection, a hang, a queue past its
     * bound: not an operator's disable, not a disagreement), are replayable from a checkpoint, and
     * connect again: what {@link #enableBackend} can bring back now.
     */
    public List<String> backendsToCatchUp() {
        List<String> names = new ArrayList<>();
        for (Backend b : backends.all()) {
            if (b.state() == BackendState.DISABLED && b.leftToCatchUp() && checkpointOf(b.name()).isPresent()
                    && b.connects()) {
                names.add(b.name());
            }
        }
        return names;
    }

    public Optional<Long> checkpointOf(String backendName) {
        return admin.checkpointOf(backendName);
    }

    public boolean hasRecoveryLog() {
        return admin.hasRecoveryLog();
    }

    /** The write ordering's last position (also the recovery log's, once appends are durable). */
    public long lastPosition() {
        return pipeline.scheduler().lastPosition();
    }

    // ---------------------------------------------------------------- replica verification

    /**
     * Compares the tables of the request (all when it names none) across the enabled backends
     * holding each, at a consistent point per table, while writes go on (docs/verification.md);
     * then acts on an outvoted replica as the request says. One verification at a time (55006).
     *
     * @param progress rows compared of the estimated total; may be null
     */
    public VerificationReport verify(VerificationRequest request, Progress progress) throws SQLException {
        return verifications.run(request, progress);
    }

    /** The same, disabling or rebuilding outvoted replicas through {@code gate} (the controller's operator actions). */
    public VerificationReport verify(VerificationRequest request, Progress progress, ActionGate gate)
            throws SQLException {
        return verifications.run(request, progress, gate);
    }

    /** The last finished verification's report (tables, differences, minority, time, rows/s). */
    public Optional<VerificationReport> lastVerification() {
        return verifications.last();
    }

    /** The running verification's progress (table, rows done of the estimated total); empty when none runs. */
    public Optional<VerificationProgress> verificationProgress() {
        return verifications.running();
    }

    // ---------------------------------------------------------------- management figures

    /**
     * The database product this virtual database speaks: with a declared SQL dialect, that of a
     * backend of that engine (the dialect's own name and a recent version if none has been
     * enabled yet); else that of its backends when they all speak one engine's SQL (another
     * controller speaks its backends'), else null. Known from the backends enabled so far.
     */
    public DatabaseProduct product() {
        if (config.sqlDialect() != null) {
            return backends.all().stream().filter(b -> b.dialect() == config.sqlDialect()).map(Backend::product)
                    .filter(p -> p != null).findFirst().orElseGet(() -> DatabaseProduct.of(config.sqlDialect()));
        }
        DatabaseProduct first = null;
        for (Backend b : backends.all()) {
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

    /** Backend name to state, in configuration order. */
    public Map<String, BackendState> backendStates() {
        Map<String, BackendState> states = new LinkedHashMap<>();
        for (Backend b : backends.all()) {
            states.put(b.name(), b.state());
        }
        return states;
    }

    /** The backends, in configuration order, as management sees them. */
    public List<BackendView> backends() {
        return List.copyOf(backends.all());
    }

    /** Tells the listener about every backend state change from now on (management notifications). */
    public void addBackendListener(BackendListener listener) {
        for (Backend b : backends.all()) {
            b.addListener(listener);
        }
    }

    public Statistics.Snapshot statistics() {
        return pipeline.statistics().snapshot(pipeline.analyzer().unparsedCount());
    }

    /** The statement templates run most often, with their counts, errors, times and cache hits. */
    public List<StatementStatistics.Snapshot> topStatements(int n) {
        return pipeline.statistics().statements().top(n);
    }

    /** Client sessions open on this virtual database. */
    public int openSessions() {
        return sessions.count();
    }

    /** Sessions with a transaction open on some backend. */
    public int openTransactions() {
        return sessions.openTransactions();
    }

    /** Requests in progress over all backends. */
    public int pendingRequests() {
        return backends.pending();
    }

    /** Auto-commit reads waiting at the controller for a backend under its maxPending. */
    public int readsWaitingForRoom() {
        return pipeline.admission().waiting();
    }

    /** Schema changes not yet run on every backend (DDL of any table, and the tables of the others). */
    public int schemaChangesSettling() {
        return sessions.schemaChangesSettling();
    }

    /** The result cache's counters, or null without a cache. */
    public CacheStatistics cacheStatistics() {
        return pipeline.cache().statistics();
    }

    /** Operator action: empty the result cache. */
    public void flushCache() {
        pipeline.cache().flush();
    }

    // ---------------------------------------------------------------- shutdown

    /** Stops accepting new requests, waits up to the timeout for those in flight, closes backends. */
    public void shutdown(Duration wait) {
        if (closed) {
            return;
        }
        closed = true;
        hangDetector.close();
        admin.stopSchedule();
        sessions.closeAll();
        for (Backend b : backends.all()) {
            b.close(wait);
        }
        admin.closeLog();
        LOG.info("virtual database {} shut down", name);
    }

    @Override
    public void close() {
        shutdown(Duration.ofSeconds(10));
    }
}
