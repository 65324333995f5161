package org.phalanx.controller;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.ConfigException;
import org.phalanx.controller.config.ControllerConfig;
import org.phalanx.controller.config.ControllerConfigReader;
import org.phalanx.controller.config.VirtualDatabaseConfig;
import org.phalanx.controller.config.VirtualDatabaseConfigReader;
import org.phalanx.controller.jmx.JmxEndpoint;
import org.phalanx.controller.jmx.ManagementRegistry;
import org.phalanx.controller.net.FrontEnd;
import org.phalanx.controller.web.WebEndpoint;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.engine.SqlState;

import javax.management.MBeanServer;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Phalanx controller, embeddable: hosts the configured virtual databases, serves them on the
 * client port, and registers its MBeans (served over JMX when controller.xml's {@code <jmx>} names an admin).
 * {@link ControllerMain} runs one as a process.
 */
public final class Controller {
    private static final Logger LOG = LogManager.getLogger(Controller.class);
    /** How long requests in flight may take to finish when the controller stops. */
    static final Duration STOP_GRACE = Duration.ofSeconds(10);
    /** How long each request manager may take to wind down once no client is left. */
    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);
    /** How often a shutdown in wait mode looks whether the clients have gone. */
    private static final long WAIT_POLL_MILLIS = 100;

    private final ControllerConfig config;
    private final VirtualDatabaseStarter starter;
    /** Hosted virtual databases in the order they were started. */
    private final List<VirtualDatabase> running = new CopyOnWriteArrayList<>();
    /** The same by name, read live by the front end (virtual databases are loaded and unloaded while it runs). */
    private final Map<String, VirtualDatabase> served = new ConcurrentHashMap<>();
    private final ManagementRegistry management = new ManagementRegistry();
    private final CompletableFuture<Void> stoppedFuture = new CompletableFuture<>();
    private FrontEnd frontEnd;
    private JmxEndpoint jmx;
    private WebEndpoint web;
    private boolean stopped;

    public Controller(ControllerConfig config) {
        this(config, VirtualDatabase::start);
    }

    Controller(ControllerConfig config, VirtualDatabaseStarter starter) {
        this.config = config;
        this.starter = starter;
    }

    /** Reads and checks controller.xml and the virtual database files it names; starts nothing. */
    public static Controller fromConfig(Path controllerXml) throws ConfigException {
        return new Controller(ControllerConfigReader.read(controllerXml));
    }

    public ControllerConfig config() {
        return config;
    }

    /**
     * Starts every virtual database, then listens, then opens the JMX connector (if configured).
     * On failure, whatever was started is shut down again.
     */
    public synchronized void start() throws SQLException, IOException {
        if (frontEnd != null || stopped) {
            throw new IllegalStateException(stopped ? "stopped controllers do not restart" : "already started");
        }
        try {
            for (VirtualDatabaseConfig vdb : config.virtualDatabases()) {
                host(starter.start(vdb));
            }
            FrontEnd fe = new FrontEnd(config.listen(), served);
            fe.start();
            frontEnd = fe;
            management.registerController(new ControllerManagement(this));
            if (config.jmx() != null && !config.jmx().admins().isEmpty()) {
                jmx = JmxEndpoint.start(config.jmx(), management.server());
            } else if (config.jmx() != null) {
                LOG.warn("No JMX port opened: <jmx> names no <admin> user, and unauthenticated access is refused");
            }
            if (config.http() != null) {
                web = WebEndpoint.start(config.http(), config.jmx() == null ? List.of() : config.jmx().admins(),
                        management.server(), name -> Optional.ofNullable(served.get(name)).map(VirtualDatabase::answerTimes));
            }
        } catch (SQLException | IOException | RuntimeException e) {
            if (jmx != null) {
                jmx.close();
                jmx = null;
            }
            if (frontEnd != null) {
                frontEnd.stop(Duration.ZERO);
                frontEnd = null;
            }
            management.unregisterAll();
            shutDownVirtualDatabases(Duration.ZERO);
            throw e;
        }
        LOG.info("Phalanx controller listening on {}:{} (virtual databases: {})",
                config.listen().address(), frontEnd.port(), String.join(", ", served.keySet()));
    }

    private void host(VirtualDatabase vdb) {
        running.add(vdb);
        served.put(vdb.name(), vdb);
        management.registerVirtualDatabase(vdb,
                (name, mode) -> unloadVirtualDatabase(name, ShutdownMode.parse(mode)));
    }

    /**
     * A hosted virtual database, for operator actions: disable and enable backends, checkpoints,
     * purge, dumps ({@link VirtualDatabase#disableBackend}, {@link VirtualDatabase#backup}, ...).
     *
     * @throws IllegalArgumentException if this controller hosts no virtual database of that name
     */
    public VirtualDatabase virtualDatabase(String name) {
        return hosted(name);
    }

    /** Names of the hosted virtual databases, in the order they were started. */
    public List<String> virtualDatabaseNames() {
        List<String> names = new ArrayList<>();
        for (VirtualDatabase vdb : running) {
            names.add(vdb.name());
        }
        return names;
    }

    /** Backend states of a hosted virtual database, in configuration order. */
    public Map<String, org.phalanx.requestmanager.api.BackendState> backendStates(String virtualDatabase) {
        return hosted(virtualDatabase).backendStates();
    }

    /** Request counters of a hosted virtual database (reads, writes, unparsed statements...). */
    public org.phalanx.requestmanager.stats.Statistics.Snapshot statistics(String virtualDatabase) {
        return hosted(virtualDatabase).statistics();
    }

    /** Result cache counters of a hosted virtual database, or null without a cache. */
    public org.phalanx.requestmanager.stats.CacheStatistics cacheStatistics(String virtualDatabase) {
        return hosted(virtualDatabase).cacheStatistics();
    }

    /** How long the controller takes to answer a hosted virtual database's requests. */
    public org.phalanx.controller.vdb.AnswerTimes answerTimes(String virtualDatabase) {
        return hosted(virtualDatabase).answerTimes();
    }

    private VirtualDatabase hosted(String name) {
        VirtualDatabase vdb = name == null ? null : served.get(name);
        if (vdb == null) {
            throw new IllegalArgumentException("no virtual database " + name + " (hosted: "
                    + String.join(", ", virtualDatabaseNames()) + ")");
        }
        return vdb;
    }

    /** The MBean server holding this controller's MBeans (the JMX connector serves it). */
    public MBeanServer mbeanServer() {
        return management.server();
    }

    /** The monitoring HTTP port, or -1 without one. */
    public synchronized int httpPort() {
        return web == null ? -1 : web.port();
    }

    /** The JMX connector's port, or -1 without one. */
    public synchronized int jmxPort() {
        return jmx == null ? -1 : jmx.port();
    }

    /** The port clients connect to; the real one when the configuration asked for port 0. */
    public synchronized int port() {
        if (frontEnd == null) {
            throw new IllegalStateException("not started");
        }
        return frontEnd.port();
    }

    synchronized int openConnections() {
        return frontEnd == null ? 0 : frontEnd.openConnections();
    }

    // ------------------------------------------------------------------ load, unload, shutdown

    /**
     * Reads a virtual database file (relative paths against controller.xml's folder) and starts
     * hosting it; clients can log in to it at once.
     *
     * @throws SQLException (SQLState 42710) if a virtual database of that name is hosted already,
     *                      (22023) if the file is invalid, or why it could not start
     */
    public VirtualDatabase loadVirtualDatabase(Path file) throws SQLException {
        Path resolved = config.file().resolveSibling(file).normalize();
        VirtualDatabaseConfig vdbConfig;
        try {
            vdbConfig = VirtualDatabaseConfigReader.read(resolved);
        } catch (ConfigException e) {
            throw new SQLException(String.join("; ", e.problems()), SqlState.INVALID_PARAMETER_VALUE.code());
        }
        synchronized (this) {
            if (stopped || frontEnd == null) {
                throw new SQLException("the controller is not running",
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
            }
            if (served.containsKey(vdbConfig.name())) {
                throw new SQLException("virtual database " + vdbConfig.name() + " is already hosted: unload it first",
                        SqlState.DUPLICATE_OBJECT.code());
            }
            VirtualDatabase vdb = starter.start(vdbConfig);
            host(vdb);
            LOG.info("Virtual database {} loaded from {}", vdb.name(), resolved);
            return vdb;
        }
    }

    /**
     * Stops hosting a virtual database: new logins are refused at once, then, by mode, it waits
     * for its clients to leave (wait), lets requests in flight finish (safe) or stops now (force).
     */
    public void unloadVirtualDatabase(String name, ShutdownMode mode) throws SQLException {
        VirtualDatabase vdb;
        synchronized (this) {
            vdb = served.remove(name);
            if (vdb == null) {
                throw new SQLException("no virtual database " + name + " to unload", SqlState.UNDEFINED_OBJECT.code());
            }
        }
        LOG.info("Unloading virtual database {} ({})", name, mode);
        if (mode == ShutdownMode.WAIT) {
            while (vdb.requestManager().map(rm -> rm.openSessions() > 0).orElse(false)) {
                pause();
            }
        }
        management.unregisterVirtualDatabase(name);
        vdb.shutdown(mode == ShutdownMode.FORCE ? Duration.ZERO : SHUTDOWN_WAIT);
        running.remove(vdb);
    }

    /**
     * Shuts down in the background (the caller, a JMX client for instance, gets its answer
     * first): wait refuses new clients and waits for the connected ones to leave; safe is
     * {@link #stop()}; force closes connections without grace.
     */
    public void shutdown(ShutdownMode mode) {
        Thread t = new Thread(() -> {
            LOG.info("Phalanx controller shutting down ({})", mode);
            if (mode == ShutdownMode.WAIT) {
                FrontEnd fe;
                synchronized (this) {
                    fe = frontEnd;
                }
                if (fe != null) {
                    fe.stopAccepting();
                    while (fe.openConnections() > 0) {
                        pause();
                    }
                }
            }
            stop(mode == ShutdownMode.FORCE ? Duration.ZERO : STOP_GRACE);
        }, "phalanx-shutdown-" + mode);
        t.start();
    }

    /** Completes once the controller has stopped (ControllerMain then ends the process). */
    public CompletableFuture<Void> stopped() {
        return stoppedFuture;
    }

    private static void pause() {
        try {
            Thread.sleep(WAIT_POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for clients to leave", e);
        }
    }

    /**
     * Stops accepting clients, lets requests in flight finish (bounded), closes the client
     * connections (their open transactions roll back), then shuts the request managers down.
     * Safe to call more than once and on a controller that never started.
     */
    public void stop() {
        stop(STOP_GRACE);
    }

    private synchronized void stop(Duration grace) {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            if (frontEnd == null) {
                return;
            }
            LOG.info("Phalanx controller stopping");
            if (web != null) {
                web.close();
            }
            if (jmx != null) {
                jmx.close();
            }
            frontEnd.stop(grace);
            management.unregisterAll();
            shutDownVirtualDatabases(grace.isZero() ? Duration.ZERO : SHUTDOWN_WAIT);
            LOG.info("Phalanx controller stopped");
        } finally {
            stoppedFuture.complete(null);
        }
    }

    private void shutDownVirtualDatabases(Duration wait) {
        for (VirtualDatabase vdb : running) {
            try {
                vdb.shutdown(wait);
            } catch (RuntimeException e) {
                LOG.error("Shutting down virtual database {} failed", vdb.name(), e);
            }
        }
        running.clear();
        served.clear();
    }
}
