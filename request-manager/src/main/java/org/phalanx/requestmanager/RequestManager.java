package org.phalanx.requestmanager;

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
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.balancer.ReadBalancer;
import org.phalanx.requestmanager.cache.CacheStatistics;
import org.phalanx.requestmanager.cache.ResultCache;
import org.phalanx.requestmanager.cache.Touch;
import org.phalanx.requestmanager.routing.PartialReplication;
import org.phalanx.requestmanager.routing.Placement;
import org.phalanx.requestmanager.routing.Routing;
import org.phalanx.requestmanager.routing.SchemaLearner;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.LocalWriteOrdering;
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
    final WriteOrdering ordering = new LocalWriteOrdering();
    final ReadBalancer balancer;
    final Statistics statistics = new Statistics();
    final SchemaView schema = new SchemaView();
    final Routing routing;
    /** Null when the virtual database has no result cache. */
    final ResultCache cache;
    private final boolean lockWholeDatabase;
    private final AtomicLong transactionIds = new AtomicLong();
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
        List<Backend> list = new ArrayList<>();
        Duration connectionTimeout = config.lockTimeout().compareTo(Duration.ofSeconds(30)) < 0
                ? config.lockTimeout() : Duration.ofSeconds(30);
        for (BackendConfig bc : backendConfigs) {
            list.add(new Backend(bc, connectionTimeout, this::backendDisabled));
        }
        this.backends = List.copyOf(list);
        this.routing = config.replication().isPartial()
                ? new PartialReplication(schema, new Placement(config.placementRules(), defaultPlacement(config)))
                : Routing.EVERYWHERE;
        this.cache = config.cache() == null ? null : new ResultCache(config.cache(), this::pendingRequests);
        this.lockWholeDatabase = switch (config.lockGranularity()) {
            case DATABASE -> true;
            case TABLE -> false;
            case AUTO -> backends.stream().anyMatch(b -> b.engine().locksWholeDatabase);
        };
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
        for (Backend b : backends) {
            try {
                b.enable();
                learnSchema(b, contradictions);
            } catch (SQLException e) {
                b.disable("could not be enabled: " + e.getMessage());
                LOG.error("virtual database {}: backend {} could not be enabled: {}", name, b.name(), e.getMessage());
                schema.learn(b, declaredTables(b));
            }
        }
        if (!contradictions.isEmpty()) {
            throw new SQLException(String.join("\n", contradictions), "XX000");
        }
        if (enabledBackends().isEmpty()) {
            LOG.error("virtual database {} has no enabled backend: every request will fail", name);
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

    public List<Backend> backends() {
        return backends;
    }

    public Statistics.Snapshot statistics() {
        return statistics.snapshot(analyzer.unparsedCount());
    }

    /** Operator action: take a backend out of service. */
    public void disableBackend(String backendName) throws SQLException {
        for (Backend b : backends) {
            if (b.name().equals(backendName)) {
                b.disable("disabled by an operator");
                return;
            }
        }
        throw new SQLException("virtual database " + name + " has no backend " + backendName, "42704");
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
     * What a write locks and orders against. The tables it reads count too: INSERT ... SELECT
     * must see the same rows on every backend.
     */
    Collection<String> lockResources(SqlAnalysis a) {
        if (lockWholeDatabase || a.allTables()) {
            return Set.of(LockManager.ALL);
        }
        Set<String> r = new HashSet<>(a.writtenTables());
        r.addAll(a.readTables());
        return r.isEmpty() ? Set.of(LockManager.ALL) : r;
    }

    /** Requests in progress over all backends (load for load-triggered relaxed caching). */
    int pendingRequests() {
        int sum = 0;
        for (Backend b : backends) {
            sum += b.pending();
        }
        return sum;
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

    private void backendDisabled(Backend b) {
        if (enabledBackends().isEmpty()) {
            LOG.error("virtual database {} has no enabled backend left", name);
        }
    }

    /** Stops accepting new requests, waits up to the timeout for those in flight, closes backends. */
    public void shutdown(Duration wait) {
        if (closed) {
            return;
        }
        closed = true;
        for (VirtualSession s : List.copyOf(sessions)) {
            s.close();
        }
        for (Backend b : backends) {
            b.close(wait);
        }
        LOG.info("virtual database {} shut down", name);
    }

    @Override
    public void close() {
        shutdown(Duration.ofSeconds(10));
    }
}
