package org.phalanx.requestmanager.backend;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.requestmanager.BackendConfig;
import org.phalanx.requestmanager.BackendState;
import org.phalanx.requestmanager.Credentials;
import org.phalanx.requestmanager.scheduler.LockManager;

/**
 * One real database: its connection pools (one HikariCP pool per real login), its state, and
 * its ordered work queue.
 *
 * <p>The queue orders writes by conflict: a task starts once the earlier tasks it conflicts
 * with on this backend (same table, or {@link LockManager#ALL}) and the earlier task of the same
 * session have finished. Tasks are enqueued in total-order position order, so conflicting
 * writes run in that order on every backend while independent ones run in parallel, and a slow
 * backend falls behind without holding the others back.
 */
public final class Backend {
    private static final Logger LOG = LogManager.getLogger(Backend.class);

    private final BackendConfig config;
    private final Engine engine;
    private final Duration connectionTimeout;
    private final Map<Credentials, HikariDataSource> pools = new ConcurrentHashMap<>();
    private final ExecutorService executor;
    private final AtomicInteger pending = new AtomicInteger();
    /**
     * Last task queued per resource. Written only inside the write ordering's delivery; read
     * concurrently by {@link #caughtUp}, so an update never leaves a moment without the new task.
     */
    private final Map<String, CompletableFuture<?>> tails = new ConcurrentHashMap<>();
    private volatile BackendState state = BackendState.DISABLED;
    private volatile String disabledReason = "not started";
    private final Consumer<Backend> onDisable;

    public Backend(BackendConfig config, Duration connectionTimeout, Consumer<Backend> onDisable) {
        this.config = config;
        this.engine = Engine.of(config.url());
        this.connectionTimeout = connectionTimeout;
        this.onDisable = onDisable;
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "phalanx-backend-" + config.name());
            t.setDaemon(true);
            return t;
        });
    }

    public String name() {
        return config.name();
    }

    public BackendConfig config() {
        return config;
    }

    public Engine engine() {
        return engine;
    }

    public int weight() {
        return config.weight();
    }

    public BackendState state() {
        return state;
    }

    public boolean isEnabled() {
        return state == BackendState.ENABLED;
    }

    public String disabledReason() {
        return disabledReason;
    }

    /** Requests in progress on this backend (queued writes included). */
    public int pending() {
        return pending.get();
    }

    /** Checks the backend answers with its default login, then puts it in service. */
    public void enable() throws SQLException {
        try (Connection c = connection(config.credentials())) {
            if (!c.isValid(5)) {
                throw new SQLException("backend " + name() + " did not answer a validity check", "08001");
            }
        }
        state = BackendState.ENABLED;
        disabledReason = null;
        LOG.info("backend {} enabled ({})", name(), engine);
    }

    /**
     * Takes the backend out of service at once. Idempotent; the first reason is kept. Queued
     * work that has not started is skipped.
     */
    public void disable(String reason) {
        if (leaveService(reason)) {
            LOG.error("backend {} disabled: {}", name(), reason);
            onDisable.accept(this);
        }
    }

    /** An operator takes it out of service: not a failure (the caller records where it stopped). */
    public void disableByOperator() {
        if (leaveService("disabled by an operator")) {
            LOG.info("backend {} disabled by an operator", name());
        }
    }

    private synchronized boolean leaveService(String reason) {
        if (state == BackendState.DISABLED) {
            return false;
        }
        state = BackendState.DISABLED;
        disabledReason = reason;
        return true;
    }

    /**
     * Recovery moves a disabled backend through REPLAYING or RESTORING and back to DISABLED
     * ({@link #enable()} puts it in service); nothing is sent to it meanwhile.
     */
    public synchronized void recoveryState(BackendState next) {
        if (state == BackendState.ENABLED) {
            throw new IllegalStateException("backend " + name() + " is enabled");
        }
        state = next;
    }

    /** A pooled connection for the real login; closing it returns it to the pool. */
    public Connection connection(Credentials credentials) throws SQLException {
        return pools.computeIfAbsent(credentials, this::newPool).getConnection();
    }

    public Connection connectionFor(String virtualUser) throws SQLException {
        return connection(config.credentialsFor(virtualUser));
    }

    public Credentials credentialsFor(String virtualUser) {
        return config.credentialsFor(virtualUser);
    }

    private HikariDataSource newPool(Credentials credentials) {
        HikariConfig hc = new HikariConfig();
        hc.setPoolName("phalanx-" + name() + "-" + credentials.user());
        hc.setJdbcUrl(config.url());
        if (config.driverClass() != null) {
            hc.setDriverClassName(config.driverClass());
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
        if (engine == Engine.SQLITE) {
            // WAL: readers never block the writer; busy_timeout: wait for a lock instead of failing;
            // dates as text, readable and the same whatever the controller's time zone.
            addDefault(hc, "journal_mode", "WAL");
            addDefault(hc, "busy_timeout", "10000");
            addDefault(hc, "date_class", "TEXT");
        }
        return new HikariDataSource(hc);
    }

    private void addDefault(HikariConfig hc, String property, String value) {
        if (!config.url().contains(property + "=")) {
            hc.addDataSourceProperty(property, value);
        }
    }

    /**
     * Queues work behind the earlier tasks it conflicts with and behind {@code after} (the
     * session's previous task here). Must be called from within the write ordering's delivery,
     * which serialises calls and fixes the order.
     */
    public <T> CompletableFuture<T> enqueue(Collection<String> resources, CompletableFuture<?> after, Callable<T> work) {
        List<CompletableFuture<?>> deps = new ArrayList<>();
        if (after != null && !after.isDone()) {
            deps.add(after);
        }
        if (resources.contains(LockManager.ALL)) {
            for (CompletableFuture<?> f : tails.values()) {
                if (!f.isDone()) {
                    deps.add(f);
                }
            }
        } else {
            for (String r : resources) {
                addIfPending(deps, tails.get(r));
            }
            addIfPending(deps, tails.get(LockManager.ALL));
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        pending.incrementAndGet();
        Runnable run = () -> {
            try {
                if (!isEnabled()) {
                    throw new BackendDisabledException(name());
                }
                result.complete(work.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            } finally {
                pending.decrementAndGet();
            }
        };
        if (deps.isEmpty()) {
            submit(run, result);
        } else {
            CompletableFuture.allOf(deps.toArray(new CompletableFuture[0])).whenComplete((v, e) -> submit(run, result));
        }
        if (resources.contains(LockManager.ALL)) {
            tails.put(LockManager.ALL, result);
            tails.keySet().removeIf(k -> !k.equals(LockManager.ALL)); // the new task comes after all of them
        } else {
            for (String r : resources) {
                tails.put(r, result);
            }
            if (tails.size() > 1024) {
                tails.values().removeIf(CompletableFuture::isDone);
            }
        }
        return result;
    }

    private void submit(Runnable run, CompletableFuture<?> result) {
        try {
            executor.execute(run);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            pending.decrementAndGet();
            result.completeExceptionally(new BackendDisabledException(name()));
        }
    }

    /** Counts a read in progress, for least-pending balancing. */
    public void readStarted() {
        pending.incrementAndGet();
    }

    public void readFinished() {
        pending.decrementAndGet();
    }

    /**
     * Whether every write queued so far on these resources (or on the whole database) has run
     * here: a read then sees all of them.
     */
    public boolean caughtUp(Collection<String> resources) {
        if (resources.contains(LockManager.ALL)) {
            for (CompletableFuture<?> f : tails.values()) {
                if (!f.isDone()) {
                    return false;
                }
            }
            return true;
        }
        CompletableFuture<?> all = tails.get(LockManager.ALL);
        if (all != null && !all.isDone()) {
            return false;
        }
        for (String r : resources) {
            CompletableFuture<?> f = tails.get(r);
            if (f != null && !f.isDone()) {
                return false;
            }
        }
        return true;
    }

    private static void addIfPending(List<CompletableFuture<?>> deps, CompletableFuture<?> f) {
        if (f != null && !f.isDone()) {
            deps.add(f);
        }
    }

    /** Lets queued work drain (up to the timeout), then stops the queue and closes the pools. */
    public void close(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            while (pending.get() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            executor.shutdown();
            executor.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdownNow();
        pools.values().forEach(HikariDataSource::close);
        pools.clear();
    }

    @Override
    public String toString() {
        return name();
    }
}
