package org.phalanx.controller.web;

import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.management.MBeanServer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.HttpConfig;
import org.phalanx.controller.config.JmxConfig;
import org.phalanx.controller.config.KeyStores;
import org.phalanx.controller.vdb.AnswerTimes;

/**
 * The monitoring HTTP port (controller.xml's {@code <http>}): {@code /metrics} for Prometheus and
 * the web dashboard under {@code /dashboard/} with its API under {@code /api/}. Served by the
 * JDK's HTTP server on a few threads of its own, apart from the client port: a busy dashboard
 * cannot take a thread from a client, and a busy client port does not stall a scrape.
 */
public final class WebEndpoint implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(WebEndpoint.class);
    /** Threads serving HTTP requests; scrapes and dashboard polls are short. */
    private static final int THREADS = 4;

    private final HttpServer server;
    private final ExecutorService threads;
    private final LiveSeries series;
    private final ActionLog actions;

    private WebEndpoint(HttpServer server, ExecutorService threads, LiveSeries series, ActionLog actions) {
        this.server = server;
        this.threads = threads;
        this.series = series;
        this.actions = actions;
    }

    /**
     * Opens the port and serves what the configuration asks for.
     *
     * @param admins      who may log in to the dashboard (and to /metrics with metricsLogin)
     * @param answerTimes a hosted virtual database's answer times, by name
     */
    public static WebEndpoint start(HttpConfig config, List<JmxConfig.Admin> admins, MBeanServer mbeanServer,
                                    Function<String, Optional<AnswerTimes>> answerTimes) throws IOException {
        boundSlowAndManyClients();
        InetSocketAddress address = new InetSocketAddress(config.address(), config.port());
        HttpServer server;
        try {
            if (config.tls() != null) {
                HttpsServer https = HttpsServer.create(address, 0);
                https.setHttpsConfigurator(new HttpsConfigurator(KeyStores.serverContext(config.tls(), "HTTP")));
                server = https;
            } else {
                server = HttpServer.create(address, 0);
            }
        } catch (IOException e) {
            throw new IOException("cannot open the HTTP port " + config.address() + ":" + config.port() + ": "
                    + e.getMessage(), e);
        }
        ManagedObjects mbeans = new ManagedObjects(mbeanServer);
        if (config.metrics()) {
            PrometheusRegistry registry = new PrometheusRegistry();
            registry.register(new ClusterMetrics(mbeans, answerTimes));
            JvmMetrics.builder().register(registry);
            HttpContext metrics = server.createContext("/metrics", new MetricsHandler(registry));
            if (config.metricsLogin()) {
                metrics.setAuthenticator(new BasicAuthenticator("phalanx") {
                    @Override
                    public boolean checkCredentials(String user, String password) {
                        return JmxConfig.admit(admins, user, password).isPresent();
                    }
                });
            }
        }
        LiveSeries series = null;
        ActionLog actions = null;
        boolean dashboard = config.dashboard() && !admins.isEmpty();
        if (config.dashboard() && admins.isEmpty()) {
            LOG.warn("No dashboard served: <jmx> names no <admin> user to log in with");
        }
        if (dashboard) {
            AdminLogins logins = new AdminLogins(admins, config.tls() != null);
            series = new LiveSeries(mbeans, answerTimes);
            actions = new ActionLog();
            StaticAssets assets = new StaticAssets();
            server.createContext("/dashboard/", exchange -> {
                if (StaticAssets.needsLogin(exchange.getRequestURI().getPath()) && logins.user(exchange).isEmpty()) {
                    HttpReplies.redirect(exchange, "/dashboard/login.html");
                } else {
                    assets.handle(exchange);
                }
            });
            server.createContext("/api/", new DashboardApi(mbeans, logins, series, actions));
        }
        server.createContext("/", exchange -> root(exchange, dashboard));
        ExecutorService threads = threads();
        server.setExecutor(threads);
        server.start();
        if (series != null) {
            series.start();
        }
        List<String> served = new ArrayList<>();
        if (config.metrics()) {
            served.add("/metrics");
        }
        if (dashboard) {
            served.add("/dashboard/");
        }
        LOG.info("HTTP port listening on {}:{}{} (serving {})", config.address(), server.getAddress().getPort(),
                config.tls() == null ? "" : " with TLS", served.isEmpty() ? "nothing" : String.join(" and ", served));
        return new WebEndpoint(server, threads, series, actions);
    }

    /**
     * The JDK's HTTP server waits for a request as long as its client likes and keeps any number
     * of connections: a client that sends a byte a minute, or opens thousands of connections, would
     * hold the port. Bound both (JVM-wide settings, read once when the JDK's server is first used;
     * an operator's own -D values win).
     */
    private static void boundSlowAndManyClients() {
        System.getProperties().putIfAbsent("sun.net.httpserver.maxReqTime", "30"); // seconds to send a request
        System.getProperties().putIfAbsent("sun.net.httpserver.maxRspTime", "60"); // seconds to read a reply
        System.getProperties().putIfAbsent("jdk.httpserver.maxConnections", "200");
    }

    private static void root(HttpExchange exchange, boolean dashboard) throws IOException {
        if (dashboard && exchange.getRequestURI().getPath().equals("/")) {
            HttpReplies.redirect(exchange, "/dashboard/");
        } else {
            HttpReplies.error(exchange, 404, "not found: " + exchange.getRequestURI().getPath());
        }
    }

    private static ExecutorService threads() {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 10, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "phalanx-http-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** The port it listens on; the real one when the configuration asked for port 0. */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
        if (series != null) {
            series.close();
        }
        if (actions != null) {
            actions.close();
        }
    }
}
