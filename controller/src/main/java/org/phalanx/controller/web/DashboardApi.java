package org.phalanx.controller.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.phalanx.controller.jmx.BackendMXBean;
import org.phalanx.controller.jmx.ControllerMXBean;
import org.phalanx.controller.jmx.VerificationDescription;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;

/**
 * The dashboard's API under {@code /api/}: {@code POST login} (a form) and {@code logout},
 * {@code GET overview} (everything the page draws, as JSON) and {@code POST action} (an operator
 * action, run through the virtual database's MBean like the console's). Everything but login
 * needs a live session; a POST also needs the header {@code X-Phalanx-Request}, which a page of
 * another site cannot send without asking first (a CORS preflight this port never grants).
 */
final class DashboardApi implements HttpHandler {
    static final String REQUEST_HEADER = "X-Phalanx-Request";
    private static final int MAX_BODY = 16 * 1024;
    private static final int TOP_STATEMENTS = 10;
    private static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final ManagedObjects mbeans;
    private final AdminLogins logins;
    private final LiveSeries series;
    private final ActionLog actions;

    DashboardApi(ManagedObjects mbeans, AdminLogins logins, LiveSeries series, ActionLog actions) {
        this.mbeans = mbeans;
        this.logins = logins;
        this.series = series;
        this.actions = actions;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        try {
            if (path.equals("/api/login") && method.equals("POST")) {
                logIn(exchange);
                return;
            }
            Optional<String> user = logins.user(exchange);
            if (user.isEmpty()) {
                HttpReplies.error(exchange, 401, "log in first");
            } else if (path.equals("/api/overview") && method.equals("GET")) {
                HttpReplies.json(exchange, 200, overview(user.get()));
            } else if (!method.equals("POST")) {
                HttpReplies.error(exchange, 404, "not found: " + method + " " + path);
            } else if (exchange.getRequestHeaders().getFirst(REQUEST_HEADER) == null) {
                HttpReplies.error(exchange, 403, "missing header " + REQUEST_HEADER);
            } else if (path.equals("/api/logout")) {
                exchange.getResponseHeaders().add("Set-Cookie", logins.logOut(exchange));
                HttpReplies.json(exchange, 200, Map.of("loggedOut", true));
            } else if (path.equals("/api/action")) {
                action(exchange, user.get());
            } else {
                HttpReplies.error(exchange, 404, "not found: " + method + " " + path);
            }
        } catch (RuntimeException e) {
            HttpReplies.error(exchange, 500, String.valueOf(e.getMessage()));
        }
    }

    private void logIn(HttpExchange exchange) throws IOException {
        Map<String, String> form = form(HttpReplies.text(exchange, MAX_BODY));
        String address = exchange.getRemoteAddress().getAddress().getHostAddress();
        Optional<String> cookie = logins.logIn(address, form.getOrDefault("user", ""), form.getOrDefault("password", ""));
        if (cookie.isEmpty()) {
            HttpReplies.redirect(exchange, "/dashboard/login.html?failed");
            return;
        }
        exchange.getResponseHeaders().add("Set-Cookie", cookie.get());
        HttpReplies.redirect(exchange, "/dashboard/");
    }

    private static Map<String, String> form(String body) {
        Map<String, String> fields = new HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                fields.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return fields;
    }

    // ------------------------------------------------------------------ overview

    private Map<String, Object> overview(String user) {
        ControllerMXBean c = mbeans.controller();
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("user", user);
        o.put("controller", Map.of("version", c.getVersion(), "clientAddress", c.getClientAddress(),
                "clientPort", c.getClientPort(), "openConnections", c.getOpenConnections()));
        List<Object> vdbs = new ArrayList<>();
        for (String vdb : mbeans.virtualDatabases()) {
            try {
                vdbs.add(virtualDatabase(vdb));
            } catch (RuntimeException e) {
                // unloaded while we read it
            }
        }
        o.put("virtualDatabases", vdbs);
        o.put("actions", actions.recent());
        return o;
    }

    private Map<String, Object> virtualDatabase(String vdb) {
        VirtualDatabaseMXBean v = mbeans.virtualDatabase(vdb);
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("name", vdb);
        o.put("reads", v.getReads());
        o.put("writes", v.getWrites());
        o.put("commits", v.getCommits());
        o.put("rollbacks", v.getRollbacks());
        o.put("errors", v.getErrors());
        o.put("pendingRequests", v.getPendingRequests());
        o.put("openSessions", v.getOpenSessions());
        o.put("openTransactions", v.getOpenTransactions());
        o.put("answerTimeMicros", v.getAnswerTimeMicros());
        o.put("runningOperation", v.getRunningOperation());
        o.put("series", series.of(vdb));
        long logPosition = mbeans.recoveryLog(vdb).map(log -> log.getLastPosition()).orElse(-1L);
        List<Object> backends = new ArrayList<>();
        for (BackendMXBean b : mbeans.backends(vdb)) {
            Map<String, Object> backend = new LinkedHashMap<>();
            backend.put("name", b.getName());
            backend.put("state", b.getState());
            backend.put("disabledReason", b.getDisabledReason());
            backend.put("engine", b.getEngine());
            backend.put("weight", b.getWeight());
            backend.put("pendingRequests", b.getPendingRequests());
            backend.put("queuedWrites", b.getQueuedWrites());
            backend.put("reads", b.getReads());
            backend.put("writes", b.getWrites());
            backend.put("errors", b.getErrors());
            backend.put("meanLatencyMicros", b.getMeanLatencyMicros());
            backend.put("replayLag", ClusterMetrics.replayLag(b, b.getState(), logPosition));
            backends.add(backend);
        }
        o.put("backends", backends);
        o.put("cache", mbeans.cache(vdb).map(cache -> Map.of("hits", cache.getHits(), "misses", cache.getMisses(),
                "hitRatio", cache.getHitRatio(), "entries", cache.getEntries(), "memoryBytes", cache.getMemoryBytes(),
                "invalidations", cache.getInvalidations(), "evictions", cache.getEvictions())).orElse(null));
        o.put("recoveryLog", mbeans.recoveryLog(vdb).map(log -> Map.of("lastPosition", log.getLastPosition(),
                "entries", log.getSize())).orElse(null));
        o.put("topStatements", v.topStatements(TOP_STATEMENTS));
        o.put("group", v.getGroup());
        Map<String, Object> verification = new LinkedHashMap<>();
        verification.put("running", v.getVerificationProgress());
        verification.put("last", v.getLastVerification());
        o.put("verification", verification);
        return o;
    }

    // ------------------------------------------------------------------ actions

    private void action(HttpExchange exchange, String user) throws IOException {
        JsonNode request;
        try {
            request = HttpReplies.JSON.readTree(HttpReplies.text(exchange, MAX_BODY));
        } catch (JsonProcessingException e) {
            HttpReplies.error(exchange, 400, "the body must be JSON: {\"vdb\": ..., \"action\": ..., \"backend\": ...}");
            return;
        }
        String vdb = request.path("vdb").asText("");
        String action = request.path("action").asText("");
        String backend = request.path("backend").asText("");
        if (!mbeans.virtualDatabases().contains(vdb)) {
            HttpReplies.error(exchange, 404, "no virtual database '" + vdb + "'");
            return;
        }
        VirtualDatabaseMXBean v = mbeans.virtualDatabase(vdb);
        boolean backendNeeded = action.equals("enable") || action.equals("disable") || action.equals("backup");
        if (backendNeeded && !List.of(v.getBackends()).contains(backend)) {
            HttpReplies.error(exchange, 404, "virtual database '" + vdb + "' has no backend '" + backend + "'");
            return;
        }
        ActionLog.Work work = work(v, action, backend);
        if (work == null) {
            HttpReplies.error(exchange, 400, "unknown action '" + action
                    + "' (enable, disable, checkpoint, backup, verify, flushCache)");
            return;
        }
        try {
            HttpReplies.json(exchange, 202, actions.start(user, vdb, action, backend, work));
        } catch (IllegalStateException e) {
            HttpReplies.error(exchange, 503, e.getMessage());
        }
    }

    /** What an action does, or null for an unknown one. */
    private static ActionLog.Work work(VirtualDatabaseMXBean v, String action, String backend) {
        String stamp = LocalDateTime.now().format(NAME_TIME);
        switch (action) {
            case "disable":
                return () -> {
                    v.disableBackend(backend);
                    return backend + " disabled";
                };
            case "enable":
                return () -> {
                    v.enableBackend(backend);
                    return backend + " enabled";
                };
            case "checkpoint":
                return () -> "checkpoint dashboard-" + stamp + " at position " + v.checkpoint("dashboard-" + stamp);
            case "backup":
                return () -> {
                    String name = "dashboard-" + backend + "-" + stamp;
                    v.backup(backend, name, "");
                    return "dump " + name + " written";
                };
            case "verify":
                return () -> {
                    VerificationDescription report = v.verify("");
                    return report.differences() == 0
                            ? "replicas identical (" + report.rowsCompared() + " rows compared)"
                            : report.differences() + (report.differences() == 1 ? " row differs" : " rows differ")
                            + "; outvoted: " + (report.minority().length == 0 ? "no majority" : String.join(", ", report.minority()));
                };
            case "flushCache":
                return () -> {
                    v.flushCache();
                    return "cache flushed";
                };
            default:
                return null;
        }
    }
}
