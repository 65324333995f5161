package org.phalanx.requestmanager.backend;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.SqliteSchemaTable;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.api.BackendListener;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.api.BackendView;
import org.phalanx.requestmanager.api.DatabaseProduct;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.Credentials;
import org.phalanx.requestmanager.config.HangLimits;
import org.phalanx.requestmanager.analysis.CatalogQualifiers;
import org.phalanx.requestmanager.config.RewriteRule;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.LockManager;
import org.phalanx.requestmanager.scheduler.RowKeys;
import org.phalanx.requestmanager.stats.BackendStatistics;

/**
 * One real database: its connection pools (one HikariCP pool per real login), its state, and
 * its ordered work queue.
 *
 * <p>The queue orders writes by conflict: a task starts once the earlier tasks it conflicts
 * with on this backend and the earlier task of the same session have finished. Two tasks
 * conflict when one writes a table the other reads or writes, or either writes the whole
 * database ({@link LockManager#ALL}); tasks that only share tables they read do not (see
 * {@link QueueTails}). Tasks are enqueued in total-order position order, so conflicting writes
 * run in that order on every backend while independent ones run in parallel, and a slow backend
 * falls behind without holding the others back.
 */
public final class Backend implements BackendView {
    private static final Logger LOG = LogManager.getLogger(Backend.class);

    private final BackendConfig config;
    private final Engine engine;
    private final Duration connectionTimeout;
    private final Map<Credentials, HikariDataSource> pools = new ConcurrentHashMap<>();
    /**
     * Per login, the isolation level its pooled connections have when taken without session
     * settings: the one HikariCP found on its first connection and puts back on any it returns
     * changed. Learned from the first transaction branch, it spares each branch asking (for
     * PostgreSQL, a round trip: pgjdbc runs {@code SHOW TRANSACTION ISOLATION LEVEL}).
     */
    private final Map<Credentials, Integer> pooledIsolation = new ConcurrentHashMap<>();
    private final ExecutorService executor;
    private final AtomicInteger pending = new AtomicInteger();
    /** Queued or running writes, commits and rollbacks, and their size: bounded by the backend's {@link HangLimits}. */
    private final Set<BackendTask<?>> unfinished = ConcurrentHashMap.newKeySet();
    private final AtomicLong unfinishedBytes = new AtomicLong();
    private final RunningStatements running = new RunningStatements();
    private final ReadStatements readStatements = new ReadStatements();
    /** What a new task waits for: the last writer and later readers per resource. */
    private final QueueTails tails = new QueueTails();
    /** What the backend's metadata calls its database product, once it has been enabled (null before). */
    private volatile DatabaseProduct product;
    /** The backend's own database as its driver names it (MariaDB's, PostgreSQL's; null for SQLite), once enabled. */
    private volatile String ownCatalog;
    /**
     * Per resource, tasks whose write, commit or rollback a client has already been answered for
     * (another backend ran it first) but that have not run here yet. A read must not be served
     * here before they have: the client may be another controller, whose next read comes over
     * another pooled connection, so per-session tails alone would not keep its writes visible.
     */
    private final Map<String, Set<CompletableFuture<?>>> acknowledgedNotRun = new ConcurrentHashMap<>();
    private volatile BackendState state = BackendState.DISABLED;
    /** How many times it was put in service: what was learned of its schema before may no longer hold. */
    private final AtomicInteger serviceGeneration = new AtomicInteger();
    private volatile String disabledReason = "not started";
    private volatile boolean leftToCatchUp;
    /**
     * Between leaving service and the end of its failure's handling: its waiters are answered first,
     * so a client may ask to enable it again before the controller has recorded where it left.
     */
    private volatile boolean leaving;
    private volatile long maxStatementBytes = Long.MAX_VALUE;
    private final Consumer<Backend> onDisable;
    private final List<BackendListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final BackendStatistics statistics = new BackendStatistics();
    /** Told each time a request here ends (read admission hands the room to a waiting read). */
    private final Consumer<Backend> onRequestEnded;

    public Backend(BackendConfig config, Duration connectionTimeout, Consumer<Backend> onDisable) {
        this(config, connectionTimeout, onDisable, b -> { });
    }

    public Backend(BackendConfig config, Duration connectionTimeout, Consumer<Backend> onDisable,
                   Consumer<Backend> onRequestEnded) {
        this.config = config;
        this.onRequestEnded = onRequestEnded;
        this.engine = Engine.ofUrl(config.url());
        this.connectionTimeout = connectionTimeout;
        this.onDisable = onDisable;
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "phalanx-backend-" + config.name());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public BackendConfig config() {
        return config;
    }

    @Override
    public Engine engine() {
        return engine;
    }

    /**
     * The engine whose SQL this backend speaks. The engine itself except for another Phalanx
     * controller, which speaks the SQL of its own backends, as its metadata's product name says
     * (learned when it is enabled; SQLite's until then, the common case of a tree).
     */
    public Engine dialect() {
        if (engine != Engine.PHALANX) {
            return engine;
        }
        DatabaseProduct p = product;
        return p == null ? Engine.SQLITE : Engine.ofProduct(p.name());
    }

    /** The database product the backend reported when last enabled, or null if it never was. */
    @Override
    public DatabaseProduct product() {
        return product;
    }

    @Override
    public int weight() {
        return config.weight();
    }

    @Override
    public BackendState state() {
        return state;
    }

    @Override
    public boolean isEnabled() {
        return state == BackendState.ENABLED;
    }

    @Override
    public String disabledReason() {
        return disabledReason;
    }

    /** Reads, writes, errors and execution time on this backend. */
    @Override
    public BackendStatistics statistics() {
        return statistics;
    }

    /** Adds a listener told about every state change from now on (management notifications). */
    public void addListener(BackendListener listener) {
        listeners.add(listener);
    }

    private void changed(BackendState from, BackendState to, String reason, boolean failure) {
        if (from == to) {
            return;
        }
        for (BackendListener l : listeners) {
            try {
                l.stateChanged(this, from, to, reason, failure);
            } catch (RuntimeException e) {
                LOG.warn("a backend state listener failed: {}", e.toString());
            }
        }
    }

    /** Requests in progress on this backend (queued writes included). */
    @Override
    public int pending() {
        return pending.get();
    }

    /** Whether an auto-commit read may be sent here now: fewer requests in progress than maxPending, if set. */
    public boolean hasRoom() {
        int max = config.maxPending();
        return max <= 0 || pending.get() < max;
    }

    /** Counts a read in progress if there is room for it (see {@link #hasRoom}); false, counting nothing, if not. */
    public boolean tryReadStarted() {
        int max = config.maxPending();
        if (max <= 0) {
            pending.incrementAndGet();
            return true;
        }
        while (true) {
            int p = pending.get();
            if (p >= max) {
                return false;
            }
            if (pending.compareAndSet(p, p + 1)) {
                return true;
            }
        }
    }

    private void requestEnded() {
        pending.decrementAndGet();
        onRequestEnded.accept(this);
    }

    /** Checks the backend answers with its default login, then puts it in service. */
    public void enable() throws SQLException {
        checkNothingRunning();
        try (Connection c = connection(config.credentials())) {
            if (!c.isValid(5)) {
                throw new SQLException("backend " + name() + " did not answer a validity check",
                        SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION.code());
            }
            java.sql.DatabaseMetaData md = c.getMetaData();
            product = new DatabaseProduct(md.getDatabaseProductName(), md.getDatabaseProductVersion());
            ownCatalog = c.getCatalog();
            maxStatementBytes = engine == Engine.MARIADB ? maxAllowedPacket(c) : Long.MAX_VALUE;
        }
        BackendState from = state;
        serviceGeneration.incrementAndGet();
        state = BackendState.ENABLED;
        disabledReason = null;
        LOG.info("backend {} enabled ({} {})", name(), product.name(), product.version());
        changed(from, BackendState.ENABLED, null, false);
    }

    private static long maxAllowedPacket(Connection c) throws SQLException {
        try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT @@max_allowed_packet")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** How many times the backend was put in service (a restored dump may hold other column types than before). */
    public int serviceGeneration() {
        return serviceGeneration.get();
    }

    /** The largest statement (with its values) the backend accepts, as it said when last enabled; MAX_VALUE when it has no such limit. */
    public long maxStatementBytes() {
        return maxStatementBytes;
    }

    /**
     * Refuses while work sent before the backend left service still runs there (a hung server
     * holds it until it resumes): it could still commit, behind the back of a replay that starts now.
     * Refuses too while its leaving is still being handled (where it left is not recorded yet).
     */
    public void checkNothingRunning() throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2); // work ending right now is not refused
        while ((running.count() > 0 || leaving) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (leaving) {
            throw new SQLException("backend " + name() + " is still being taken out of service: enable it once it is",
                    SqlState.OBJECT_IN_USE.code());
        }
        int n = running.count();
        if (n > 0) {
            throw new SQLException("backend " + name() + " still runs " + n + " statement(s) sent before it left service"
                    + " (is its server hung?): enable it once they have ended", SqlState.OBJECT_IN_USE.code());
        }
    }

    /**
     * Takes the backend out of service at once, its data in doubt (only a restored dump brings it
     * back). Idempotent; the first reason is kept. Queued work that has not started is skipped,
     * and whoever waits for work queued or running here is answered at once
     * ({@link BackendDisabledException}) rather than when the server answers.
     */
    public void disable(String reason) {
        leave(reason, false);
    }

    /**
     * Takes the backend out of service at once because it hung or fell too far behind, not because
     * its data is in doubt: the usual replay catches it up (its record of applied positions says
     * from where). Otherwise as {@link #disable}.
     */
    public void disableToCatchUp(String reason) {
        leave(reason, true);
    }

    /** Whether it last left service to be caught up by replay (see {@link #disableToCatchUp}). */
    public boolean leftToCatchUp() {
        return leftToCatchUp;
    }

    private void leave(String reason, boolean toCatchUp) {
        BackendState from;
        synchronized (this) {
            from = leaveService(reason);
            if (from != null) {
                leftToCatchUp = toCatchUp;
                leaving = true;
            }
        }
        if (from != null) {
            try {
                LOG.error("backend {} disabled: {}", name(), reason);
                releaseWaiters();
                onDisable.accept(this);
            } finally {
                leaving = false;
            }
            changed(from, BackendState.DISABLED, reason, true);
        }
    }

    /** Fails every unfinished task and frees threads blocked on a read (on a thread of its own: waiters may react at length). */
    private void releaseWaiters() {
        List<BackendTask<?>> tasks = List.copyOf(unfinished);
        running.unstickAll();
        if (!tasks.isEmpty()) {
            Thread t = new Thread(() -> tasks.forEach(task -> {
                unfinished.remove(task); // before its waiters wake (they run first): they may count what is left
                task.completeExceptionally(new BackendDisabledException(name()));
            }), "phalanx-release-" + name());
            t.setDaemon(true);
            t.start();
        }
    }

    /** What runs on this backend now (the hang detector's view). */
    public RunningStatements running() {
        return running;
    }

    /**
     * Whether the backend answers within the timeout, on a new connection (not a pooled one: a hung
     * server holds those): a validity check passed, or a refusal to connect (too many connections,
     * a wrong password), which is an answer too. Only silence means hung.
     */
    public boolean answers(Duration timeout) {
        return probe(timeout) != Probe.SILENT;
    }

    /**
     * A connection to it was lost: it leaves service to be caught up by replay, unless a new
     * connection passes a validity check within the connection timeout. Then only that session
     * ended (pg_terminate_backend, KILL, an idle or idle-in-transaction timeout the client set),
     * and the backend is as good as before: taking it out would let one client's statement disable
     * every replica in turn.
     *
     * @return whether it left service
     */
    public boolean leaveUnlessItConnects(String reason) {
        return leaveUnlessItConnects(reason, () -> true);
    }

    /**
     * {@link #leaveUnlessItConnects(String)}, staying only if {@code mayStay} also agrees once it
     * connects (a transaction whose branch the lost session rolled back must be doomed first).
     */
    public boolean leaveUnlessItConnects(String reason, java.util.function.BooleanSupplier mayStay) {
        if (state != BackendState.ENABLED) {
            return true; // out already (hung: its connections were aborted under it), nothing to ask
        }
        if (connects() && mayStay.getAsBoolean()) {
            LOG.info("backend {} still connects after {}: kept in service", name(), reason);
            renewPooledConnections();
            return false;
        }
        disableToCatchUp(reason);
        return true;
    }

    /**
     * A pooled connection was found ended by the server: the others may have been too (a DBA ending
     * every session of the database), so the pools open new ones rather than hand out the dead ones
     * one failure at a time (idle ones are closed now, busy ones when given back).
     */
    public void renewPooledConnections() {
        for (HikariDataSource pool : pools.values()) {
            var bean = pool.getHikariPoolMXBean();
            if (bean != null) {
                bean.softEvictConnections();
            }
        }
    }

    /** Whether a new connection passes a validity check within the connection timeout. */
    public boolean connects() {
        return probe(connectionTimeout) == Probe.CONNECTED;
    }

    private enum Probe { CONNECTED, REFUSED, SILENT }

    private Probe probe(Duration timeout) {
        CompletableFuture<Probe> answered;
        try {
            answered = CompletableFuture.supplyAsync(() -> {
                try (Connection c = newConnection(config.credentials())) {
                    return c.isValid((int) Math.max(1, timeout.toSeconds())) ? Probe.CONNECTED : Probe.REFUSED;
                } catch (SQLException | RuntimeException refused) {
                    return Probe.REFUSED;
                }
            }, executor);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            return Probe.REFUSED; // the controller is stopping: nothing to decide
        }
        try {
            return answered.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            return Probe.SILENT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Probe.REFUSED;
        }
    }

    /** An operator takes it out of service: not a failure (the caller records where it stopped). */
    public void disableByOperator() {
        BackendState from = leaveService("disabled by an operator");
        if (from != null) {
            leftToCatchUp = false; // it stays out until an operator enables it
            LOG.info("backend {} disabled by an operator", name());
            changed(from, BackendState.DISABLED, "disabled by an operator", false);
        }
    }

    /** Left disabled when the virtual database started, or by an enable that failed: why, shown as its reason. */
    public synchronized void stayedDisabled(String reason) {
        if (state == BackendState.DISABLED) {
            disabledReason = reason;
        }
    }

    /** The state it left, or null if it was already disabled. */
    private synchronized BackendState leaveService(String reason) {
        BackendState from = state;
        if (from == BackendState.DISABLED) {
            return null;
        }
        state = BackendState.DISABLED;
        disabledReason = reason;
        return from;
    }

    /**
     * Recovery moves a disabled backend through REPLAYING or RESTORING and back to DISABLED
     * ({@link #enable()} puts it in service); nothing is sent to it meanwhile.
     */
    public void recoveryState(BackendState next) {
        BackendState from;
        synchronized (this) {
            from = state;
            if (from == BackendState.ENABLED) {
                throw new IllegalStateException("backend " + name() + " is enabled");
            }
            state = next;
        }
        changed(from, next, disabledReason, false);
    }

    /** A pooled connection for the real login; closing it returns it to the pool. */
    public Connection connection(Credentials credentials) throws SQLException {
        HikariDataSource pool = pools.get(credentials);
        if (pool == null) {
            synchronized (pools) {
                pool = pools.get(credentials);
                if (pool == null) {
                    pool = newPool(credentials);
                    pools.put(credentials, pool);
                }
            }
        }
        try {
            return pool.getConnection();
        } catch (SQLException e) {
            throw BackendErrors.isPoolExhausted(e) ? new PoolExhausted(name(), config.poolSize(), e) : explained(e);
        }
    }

    /**
     * A failure to connect, said plainly where the pool would not: a SQLite file in a folder that
     * does not exist only makes the pool time out, naming neither file nor folder.
     */
    private SQLException explained(SQLException e) {
        if (engine != Engine.SQLITE || !config.url().startsWith("jdbc:sqlite:")) {
            return unreachable(e);
        }
        String path = config.url().substring("jdbc:sqlite:".length()).split("\\?", 2)[0];
        if (path.isEmpty() || path.startsWith(":") || path.startsWith("file:")) {
            return e;
        }
        java.nio.file.Path folder = java.nio.file.Path.of(path).toAbsolutePath().getParent();
        if (folder == null || java.nio.file.Files.isDirectory(folder)) {
            return e;
        }
        return new SQLException("backend " + name() + ": the folder of its SQLite file " + path + " does not exist ("
                + folder + ")", SqlState.IO_ERROR.code(), e);
    }

    /**
     * The pool could open no connection in time ("total=0"): which backend, at which address (the
     * URL without its parameters, which may hold a password), and the server's or the network's own
     * words, with their SQLState where they have one (an unknown database, a refused login). HikariCP's
     * message names none of these.
     */
    private SQLException unreachable(SQLException e) {
        if (!(e instanceof java.sql.SQLTransientConnectionException) || e.getMessage() == null
                || !e.getMessage().contains("total=0")) {
            return e;
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String state = e.getSQLState() != null ? e.getSQLState() // HikariCP passes the cause's on
                : SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION.code();
        return new java.sql.SQLTransientConnectionException("backend " + name() + " could not be reached at "
                + config.url().split("\\?", 2)[0] + (root == e ? " (no connection within the pool's timeout)"
                : ": " + root.getMessage()), state, e);
    }

    /** What the backend runs for a statement, set by the request manager (portable DDL translation). */
    @FunctionalInterface
    public interface StatementsFor {
        List<String> of(Backend backend, String sql, boolean ddl);
    }

    private volatile StatementsFor statementsFor = (b, sql, ddl) -> List.of(b.rewrite(sql));

    public void useStatements(StatementsFor statementsFor) {
        this.statementsFor = statementsFor;
    }

    /** The statements this backend runs for {@code sql}, a DDL statement or not. */
    public List<String> statementsFor(String sql, boolean ddl) {
        return statementsFor.of(this, sql, ddl);
    }

    /** The statements this backend runs for a logged statement (replay: anything starting with CREATE may be DDL). */
    public List<String> statementsFor(String sql) {
        return statementsFor(sql, sql.stripLeading().regionMatches(true, 0, "CREATE", 0, 6));
    }

    /**
     * The statement as this backend must run it: the configured rewriting rules that target it
     * applied in order (the same string when none matches, at no cost when there are none); on
     * SQLite, reads of the schema table without the controller's own ({@link SqliteSchemaTable}).
     */
    public String rewrite(String sql) {
        List<RewriteRule> rules = config.rewrites();
        String out = engine == Engine.SQLITE ? SqliteSchemaTable.withoutControllerTables(sql) : sql;
        if (rules.isEmpty()) {
            return out;
        }
        for (RewriteRule rule : rules) {
            out = rule.apply(out);
        }
        return out;
    }

    /**
     * The statement with names qualified by the virtual database ({@code vdb.t}, written with the
     * catalog the driver reports) qualified by this backend's own database instead
     * ({@link CatalogQualifiers}): MariaDB's; on SQLite, none.
     */
    public String withOwnCatalog(String sql, String virtualDatabase) {
        if (engine == Engine.SQLITE) {
            return CatalogQualifiers.toBackend(sql, virtualDatabase, null, '"');
        }
        String own = ownCatalog;
        return engine == Engine.MARIADB && own != null ? CatalogQualifiers.toBackend(sql, virtualDatabase, own, '`') : sql;
    }

    /** Read statements kept open on this backend's connections for reuse. */
    public ReadStatements readStatements() {
        return readStatements;
    }

    public Connection connectionFor(String virtualUser) throws SQLException {
        return connection(config.credentialsFor(virtualUser));
    }

    /**
     * A pooled connection for the real login with a session's settings applied; closing it puts
     * the defaults back before it returns to the pool, or drops it from the pool if that fails. A
     * SQLite connection is always dropped: a pragma has no RESET, and the backend's URL may set its
     * own starting values (SQLite connections are cheap to open again). On the backend of the
     * session's home, the home instead.
     */
    public Connection connectionFor(String virtualUser, SessionSettings settings) throws SQLException {
        return take(virtualUser, settings, false);
    }

    /** Work on a connection, for {@link #onPooledConnection}. */
    @FunctionalInterface
    public interface ConnectionWork<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} on a pooled connection with a session's settings ({@link #connectionFor}),
     * once more on another if that one was lost while the backend still connects: its session was
     * ended by the server (a DBA's pg_terminate_backend or KILL of the pool's sessions), and the pool
     * then replaces the others. For the controller's own reads (catalog lookups before a write),
     * which must not fail a client's statement for a connection the pool had kept.
     */
    public <T> T onPooledConnection(String virtualUser, SessionSettings settings, ConnectionWork<T> work)
            throws SQLException {
        try (Connection c = connectionFor(virtualUser, settings)) {
            return work.run(c);
        } catch (SQLException e) {
            if (!BackendErrors.isConnectionFailure(e) || state != BackendState.ENABLED || !connects()) {
                throw e;
            }
            renewPooledConnections();
        }
        try (Connection c = connectionFor(virtualUser, settings)) {
            return work.run(c);
        }
    }

    /**
     * {@link #connectionFor} for a transaction's branch, whose settings may change while it is open
     * ({@link #switchSettings}): whatever it carries when closed is reset.
     */
    public Connection branchConnection(String virtualUser, SessionSettings settings) throws SQLException {
        return take(virtualUser, settings, true);
    }

    /**
     * The isolation level of a connection {@link #branchConnection} gives with these settings, when
     * known: a pooled one taken without session settings; null otherwise (ask the connection).
     */
    public Integer isolationWhenTaken(String virtualUser, SessionSettings settings) {
        return pooledPlain(settings) ? pooledIsolation.get(config.credentialsFor(virtualUser)) : null;
    }

    /** What a connection taken with these settings said its level was (see {@link #isolationWhenTaken}). */
    public void isolationFound(String virtualUser, SessionSettings settings, int level) {
        if (pooledPlain(settings)) {
            pooledIsolation.put(config.credentialsFor(virtualUser), level);
        }
    }

    private boolean pooledPlain(SessionSettings settings) {
        return settings.isEmpty() && (settings.home() == null || settings.home().backend() != this);
    }

    /**
     * Makes the pooled connection of an open transaction branch ({@link #branchConnection}) a
     * session's home: it stays with the session, and leaves the pool at its end.
     */
    public SessionHome adoptAsHome(Connection branch, long waitMillis) throws SQLException {
        return SettingsApplied.adopt(branch, this, waitMillis);
    }

    /** Replaces the settings {@code from} on a connection taken here by {@code next}. */
    public void switchSettings(Connection c, SessionSettings from, SessionSettings next) throws SQLException {
        SettingsApplied.switchTo(c, from, next, engine);
    }

    private Connection take(String virtualUser, SessionSettings settings, boolean settingsMayChange) throws SQLException {
        if (settings.home() != null && settings.home().backend() == this) {
            return settings.home().lease(settings); // the session's temporary tables are there
        }
        Credentials credentials = config.credentialsFor(virtualUser);
        Connection c = connection(credentials);
        if (settings.isEmpty() && !settingsMayChange) {
            return c;
        }
        Consumer<SessionSettings> putBack = applied -> {
            if (engine() == Engine.SQLITE && !applied.isEmpty()) {
                pools.get(credentials).evictConnection(c);
                return;
            }
            try {
                if (!applied.isEmpty()) {
                    applied.resetForPool(c, engine());
                }
                c.close();
            } catch (SQLException | RuntimeException e) {
                LOG.debug("{}: resetting session settings failed, the connection is dropped: {}", name(), e.getMessage());
                pools.get(credentials).evictConnection(c);
            }
        };
        try {
            settings.apply(c, engine());
        } catch (SQLException | RuntimeException e) {
            putBack.accept(settings);
            throw e;
        }
        return SettingsApplied.wrap(c, settings, putBack, () -> pools.get(credentials).evictConnection(c));
    }

    public Credentials credentialsFor(String virtualUser) {
        return config.credentialsFor(virtualUser);
    }

    /**
     * A new connection of the backend's own login, outside the pools: for asking the backend after a
     * lost connection, when the pool may still hold others that died with it (sessions a DBA ended).
     */
    public Connection newAdminConnection() throws SQLException {
        return newConnection(config.credentials());
    }

    /** A connection for one client session only ({@link SessionHome}), outside the pools. */
    Connection sessionConnection(String virtualUser) throws SQLException {
        return newConnection(config.credentialsFor(virtualUser));
    }

    /** A connection of its own, outside the pools, with the driver properties the pools use. */
    private Connection newConnection(Credentials credentials) throws SQLException {
        if (config.driverJar() != null) {
            return new DriverDataSource(DriverJars.load(config.driverJar(), config.driverClass(), config.url()),
                    config.url(), driverDefaults()).getConnection(credentials.user(), credentials.password());
        }
        Properties p = driverDefaults();
        if (credentials.user() != null) {
            p.setProperty("user", credentials.user());
        }
        if (credentials.password() != null) {
            p.setProperty("password", credentials.password());
        }
        try {
            return java.sql.DriverManager.getConnection(config.url(), p);
        } catch (SQLException e) {
            throw explained(e);
        }
    }

    private HikariDataSource newPool(Credentials credentials) throws SQLException {
        HikariConfig hc = new HikariConfig();
        hc.setPoolName("phalanx-" + name() + "-" + credentials.user());
        Properties driverProperties = new Properties();
        if (config.driverJar() != null) {
            hc.setDataSource(new DriverDataSource(DriverJars.load(config.driverJar(), config.driverClass(), config.url()),
                    config.url(), driverProperties));
        } else {
            hc.setJdbcUrl(config.url());
            if (config.driverClass() != null) {
                hc.setDriverClassName(config.driverClass());
            }
        }
        if (credentials.user() != null) {
            hc.setUsername(credentials.user());
        }
        if (credentials.password() != null) {
            hc.setPassword(credentials.password());
        }
        hc.setMaximumPoolSize(config.poolSize());
        hc.setMinimumIdle(Math.min(2, config.poolSize()));
        hc.setConnectionTimeout(Math.max(250, connectionTimeout.toMillis()));
        // A backend that is down must not stop the controller from starting: fail on first use instead.
        hc.setInitializationFailTimeout(-1);
        Properties defaults = driverDefaults();
        driverProperties.putAll(defaults); // a driver from a jar gets them directly, not through the pool
        defaults.forEach((property, value) -> hc.addDataSourceProperty((String) property, value));
        return new HikariDataSource(hc);
    }

    /** The driver properties every connection gets unless the URL sets them. */
    private Properties driverDefaults() {
        Properties defaults = new Properties();
        if (engine == Engine.SQLITE) {
            // WAL: readers never block the writer; busy_timeout: wait for a lock instead of failing;
            // dates as text, readable and the same whatever the controller's time zone.
            Map.of("journal_mode", "WAL", "busy_timeout", "10000", "date_class", "TEXT").forEach((property, value) -> {
                if (!config.url().contains(property + "=")) {
                    defaults.setProperty(property, value);
                }
            });
        }
        return defaults;
    }

    /**
     * Queues work behind the earlier tasks it conflicts with (given what it reads and writes) and
     * behind {@code after} (the session's previous task here). Must be called from within the
     * write ordering's delivery, which serialises calls and fixes the order. {@code bytes} is the
     * size of what the work sends (statement and parameters), counted against the queue's bound:
     * a backend past its {@link HangLimits} is disabled.
     */
    public <T> BackendTask<T> enqueue(Access access, CompletableFuture<?> after, long bytes, Callable<T> work) {
        return enqueue(access, after, bytes, false, work);
    }

    /**
     * The same; with {@code callerRuns}, work that can start at once (nothing queued before it
     * conflicts) is left to the caller, which runs it on its own thread with
     * {@link BackendTask#runIfLeftToCaller} once out of the delivery: a client that waits for
     * this backend's answer anyway then saves two thread hand-offs (about 50 µs each on these
     * machines). Otherwise it runs on the backend's threads, as always.
     */
    public <T> BackendTask<T> enqueue(Access access, CompletableFuture<?> after, long bytes, boolean callerRuns,
                                      Callable<T> work) {
        List<CompletableFuture<?>> deps = tails.predecessors(access);
        if (after != null && !after.isDone()) {
            deps.add(after);
        }
        BackendTask<T> result = new BackendTask<>();
        pending.incrementAndGet();
        unfinished.add(result);
        long size = bytes + TASK_OVERHEAD_BYTES;
        unfinishedBytes.addAndGet(size);
        result.whenComplete((v, e) -> {
            unfinished.remove(result);
            unfinishedBytes.addAndGet(-size);
        });
        Runnable run = () -> {
            T value = null;
            Throwable failure = null;
            try (RunningStatements.Running r = running.start("a write")) {
                if (!isEnabled()) {
                    throw new BackendDisabledException(name());
                }
                long start = System.nanoTime();
                try {
                    value = work.call();
                } catch (Throwable t) {
                    statistics.write(System.nanoTime() - start, true);
                    throw t;
                }
                statistics.write(System.nanoTime() - start, false);
            } catch (Throwable t) {
                failure = t;
            } finally {
                requestEnded();
            }
            // answered once no longer running: whoever is told may disable and enable it at once
            unfinished.remove(result); // before its waiters wake (they run first): they may count what is left
            if (failure == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(failure);
            }
            result.ran();
        };
        if (deps.isEmpty() && callerRuns) {
            result.runByCaller(run);
        } else if (deps.isEmpty()) {
            submit(run, result);
        } else {
            CompletableFuture.allOf(deps.toArray(new CompletableFuture[0])).whenComplete((v, e) -> submit(run, result));
        }
        tails.add(access, result);
        checkQueueBound();
        return result;
    }

    /** What a queued task holds besides its statement: futures, the closure, its place in the queue. */
    private static final long TASK_OVERHEAD_BYTES = 512;

    private void checkQueueBound() {
        HangLimits limits = config.limits();
        int queued = unfinished.size();
        long bytes = unfinishedBytes.get();
        if (limits.maxQueuedWrites() > 0 && queued > limits.maxQueuedWrites()) {
            disableToCatchUp(queued + " writes queued, more than its limit of " + limits.maxQueuedWrites()
                    + " (maxQueuedWrites): too slow or hung");
        } else if (limits.maxQueuedBytes() > 0 && bytes > limits.maxQueuedBytes()) {
            disableToCatchUp("its queued writes hold " + bytes + " bytes, more than its limit of " + limits.maxQueuedBytes()
                    + " (maxQueuedBytes): too slow or hung");
        }
    }

    @Override
    public int queuedWrites() {
        return unfinished.size();
    }

    private void submit(Runnable run, BackendTask<?> result) {
        try {
            executor.execute(run);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            requestEnded();
            result.completeExceptionally(new BackendDisabledException(name()));
            result.ran();
        }
    }

    /** Counts a read in progress whatever the room (a read inside a transaction is never held back). */
    public void readStarted() {
        pending.incrementAndGet();
    }

    public void readFinished() {
        requestEnded();
    }

    /**
     * Whether every write queued so far on these tables has run here: a read of them then sees
     * all of them. Tasks that only read the tables do not count (they change other tables). For
     * {@link LockManager#ALL}: whether every task queued so far has run.
     */
    public boolean caughtUp(Collection<String> resources) {
        return tails.writesDone(resources);
    }

    /**
     * Records that a client has been answered for this queued task, which writes these resources
     * (see {@link #acknowledgedNotRun}; what it only read needs no record: reads do not change it).
     */
    public void acknowledged(Collection<String> resources, CompletableFuture<?> task) {
        if (task.isDone()) {
            return;
        }
        // a row counts as its table: reads look for what was acknowledged on the tables they read
        Set<String> tables = new java.util.HashSet<>();
        for (String r : resources) {
            tables.add(RowKeys.tableOf(r));
        }
        for (String r : tables) {
            acknowledgedNotRun.computeIfAbsent(r, k -> ConcurrentHashMap.newKeySet()).add(task);
        }
        // registered after the adds: runs at once if the task finished meanwhile
        task.whenComplete((v, e) -> {
            for (String r : tables) {
                acknowledgedNotRun.get(r).remove(task);
            }
        });
    }

    /**
     * Completes once every task on these resources (or on the whole database) that a client has
     * been answered for and that has not run here yet has finished, whatever its outcome; null if
     * there is none: a read may be served here then. Only the tasks acknowledged by now count: a
     * read must see what was acknowledged before it began, and waiting for later ones too could
     * chase a stream of writes for ever.
     */
    public CompletableFuture<?> acknowledgedSoFar(Collection<String> resources) {
        List<CompletableFuture<?>> tasks = new ArrayList<>();
        if (resources.contains(LockManager.ALL)) {
            acknowledgedNotRun.values().forEach(tasks::addAll);
        } else {
            addAll(tasks, acknowledgedNotRun.get(LockManager.ALL));
            for (String r : resources) {
                addAll(tasks, acknowledgedNotRun.get(r));
            }
        }
        tasks.removeIf(CompletableFuture::isDone);
        return tasks.isEmpty() ? null
                : CompletableFuture.allOf(tasks.toArray(new CompletableFuture[0])).handle((v, e) -> null);
    }

    private static void addAll(List<CompletableFuture<?>> to, Set<CompletableFuture<?>> tasks) {
        if (tasks != null) {
            to.addAll(tasks);
        }
    }

    /**
     * Completes once every task queued so far has finished, whatever its outcome. Call within the
     * write ordering's delivery or with writes quiesced, so that "so far" is a position.
     */
    public CompletableFuture<Void> queuedSoFar() {
        List<CompletableFuture<?>> pendingTails = tails.unfinished();
        return CompletableFuture.allOf(pendingTails.toArray(new CompletableFuture[0])).handle((v, e) -> null);
    }

    /**
     * Lets queued work drain (up to the timeout), then stops the queue and closes the pools. A
     * disabled backend's queue is drained once its tasks are released: threads still blocked on a
     * hung server are not waited for, nor are its pools (a driver may block closing them).
     */
    public void close(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            while ((isEnabled() ? pending.get() > 0 : !unfinished.isEmpty()) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            executor.shutdown();
            if (isEnabled()) {
                executor.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdownNow();
        List<HikariDataSource> open = List.copyOf(pools.values());
        pools.clear();
        pooledIsolation.clear(); // the server's defaults may change while it is out of service
        // closing a statement or a connection may wait for a hung server (a driver's lock held by a
        // thread still reading from it): on a thread of its own, waited for only so long
        Thread closing = new Thread(() -> {
            readStatements.clear();
            open.forEach(HikariDataSource::close);
        }, "phalanx-close-" + name());
        closing.setDaemon(true);
        closing.start();
        try {
            closing.join(Math.max(1000, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
