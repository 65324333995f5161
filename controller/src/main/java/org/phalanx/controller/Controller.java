package org.phalanx.controller;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.ConfigException;
import org.phalanx.controller.config.ControllerConfig;
import org.phalanx.controller.config.ControllerConfigReader;
import org.phalanx.controller.config.VirtualDatabaseConfig;
import org.phalanx.controller.net.FrontEnd;
import org.phalanx.controller.vdb.VirtualDatabase;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Phalanx controller, embeddable: hosts the configured virtual databases and serves them on
 * the client port. {@link ControllerMain} runs one as a process.
 */
public final class Controller {
    private static final Logger LOG = LogManager.getLogger(Controller.class);
    /** How long requests in flight may take to finish when the controller stops. */
    static final Duration STOP_GRACE = Duration.ofSeconds(10);
    /** How long each request manager may take to wind down once no client is left. */
    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);

    private final ControllerConfig config;
    private final VirtualDatabaseStarter starter;
    private final List<VirtualDatabase> running = new ArrayList<>();
    private FrontEnd frontEnd;
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

    /** Starts every virtual database, then listens. On failure, whatever was started is shut down again. */
    public synchronized void start() throws SQLException, IOException {
        if (frontEnd != null || stopped) {
            throw new IllegalStateException(stopped ? "stopped controllers do not restart" : "already started");
        }
        Map<String, VirtualDatabase> byName = new LinkedHashMap<>();
        try {
            for (VirtualDatabaseConfig vdb : config.virtualDatabases()) {
                VirtualDatabase started = starter.start(vdb);
                running.add(started);
                byName.put(started.name(), started);
            }
            FrontEnd fe = new FrontEnd(config.listen(), byName);
            fe.start();
            frontEnd = fe;
        } catch (SQLException | IOException | RuntimeException e) {
            shutDownVirtualDatabases(Duration.ZERO);
            throw e;
        }
        LOG.info("Phalanx controller listening on {}:{} (virtual databases: {})",
                config.listen().address(), frontEnd.port(), String.join(", ", byName.keySet()));
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

    /** Backend states of a hosted virtual database, in configuration order. */
    public Map<String, org.phalanx.requestmanager.BackendState> backendStates(String virtualDatabase) {
        return hosted(virtualDatabase).backendStates();
    }

    /** Request counters of a hosted virtual database (reads, writes, unparsed statements...). */
    public org.phalanx.requestmanager.Statistics.Snapshot statistics(String virtualDatabase) {
        return hosted(virtualDatabase).statistics();
    }

    /** Result cache counters of a hosted virtual database, or null without a cache. */
    public org.phalanx.requestmanager.cache.CacheStatistics cacheStatistics(String virtualDatabase) {
        return hosted(virtualDatabase).cacheStatistics();
    }

    private synchronized VirtualDatabase hosted(String name) {
        for (VirtualDatabase vdb : running) {
            if (vdb.name().equals(name)) {
                return vdb;
            }
        }
        throw new IllegalArgumentException("no virtual database " + name);
    }

    /** The port clients connect to; the real one when the configuration asked for port 0. */
    public synchronized int port() {
        if (frontEnd == null) {
            throw new IllegalStateException("not started");
        }
        return frontEnd.port();
    }

    /**
     * Stops accepting clients, lets requests in flight finish (bounded), closes the client
     * connections (their open transactions roll back), then shuts the request managers down.
     * Safe to call more than once and on a controller that never started.
     */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (frontEnd == null) {
            return;
        }
        LOG.info("Phalanx controller stopping");
        frontEnd.stop(STOP_GRACE);
        shutDownVirtualDatabases(SHUTDOWN_WAIT);
        LOG.info("Phalanx controller stopped");
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
    }
}
