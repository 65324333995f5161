package org.phalanx.controller.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.phalanx.testkit.tls.Keytool;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /metrics as Prometheus sees it: every scrape parses with the Prometheus client's own parser,
 * and the figures move as requests run and backends change state (issue 22, done-when 2).
 */
class MetricsEndpointIT {
    @TempDir
    Path dir;

    @BeforeAll
    static void parserInstalled() throws Exception {
        PrometheusText.assumeInstalled();
    }

    private static List<PrometheusText.Sample> scrape(MonitoredController c) throws Exception {
        var reply = c.get("/metrics");
        assertEquals(200, reply.statusCode(), reply.body());
        assertTrue(reply.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
                "Prometheus text format: " + reply.headers().map());
        return PrometheusText.parse(reply.body());
    }

    /** The value of the one sample with this name and these labels (among others). */
    private static double value(List<PrometheusText.Sample> samples, String name, String... labels) {
        Map<String, String> wanted = new java.util.HashMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        List<PrometheusText.Sample> found = samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(wanted.entrySet()))
                .toList();
        assertEquals(1, found.size(), () -> name + wanted + " in " + samples.stream().map(PrometheusText.Sample::name)
                .distinct().collect(Collectors.joining(", ")));
        return found.get(0).value();
    }

    private static String type(List<PrometheusText.Sample> samples, String family) {
        return samples.stream().filter(s -> s.family().equals(family)).map(PrometheusText.Sample::type)
                .findFirst().orElseThrow(() -> new AssertionError("no family " + family));
    }

    @Test
    void valuesMoveAsRequestsRunAndBackendsChange() throws Exception {
        try (MonitoredController c = new MonitoredController(dir, "")) {
            c.workload(1); // the table exists: what follows is counted from here
            List<PrometheusText.Sample> before = scrape(c);
            assertEquals("counter", type(before, "phalanx_requests"));
            assertEquals("histogram", type(before, "phalanx_answer_duration_seconds"));
            assertEquals("gauge", type(before, "phalanx_backend_up"));
            assertTrue(before.stream().anyMatch(s -> s.name().startsWith("jvm_memory")), "JVM metrics are served too");
            for (String b : MonitoredController.BACKENDS) {
                assertEquals(1, value(before, "phalanx_backend_up", "vdb", "vdb", "backend", b));
                assertEquals(1, value(before, "phalanx_backend_state", "backend", b, "state", "ENABLED"));
            }

            c.workload(40);
            List<PrometheusText.Sample> after = scrape(c);
            assertTrue(value(after, "phalanx_requests_total", "vdb", "vdb", "kind", "write")
                    >= value(before, "phalanx_requests_total", "vdb", "vdb", "kind", "write") + 40);
            assertTrue(value(after, "phalanx_requests_total", "vdb", "vdb", "kind", "read")
                    >= value(before, "phalanx_requests_total", "vdb", "vdb", "kind", "read") + 40);
            double answered = value(after, "phalanx_answer_duration_seconds_count", "vdb", "vdb");
            assertTrue(answered >= value(before, "phalanx_answer_duration_seconds_count", "vdb", "vdb") + 80);
            assertEquals(answered, value(after, "phalanx_answer_duration_seconds_bucket", "vdb", "vdb", "le", "+Inf"));
            assertTrue(value(after, "phalanx_answer_duration_seconds_sum", "vdb", "vdb") > 0);
            assertTrue(value(after, "phalanx_recovery_log_position", "vdb", "vdb")
                    >= value(before, "phalanx_recovery_log_position", "vdb", "vdb") + 40);
            for (String b : MonitoredController.BACKENDS) {
                assertTrue(value(after, "phalanx_backend_requests_total", "backend", b, "kind", "write")
                        >= value(before, "phalanx_backend_requests_total", "backend", b, "kind", "write") + 40);
            }

            // a repeated read is answered by the cache the second time
            try (Connection conn = c.connect(); Statement s = conn.createStatement()) {
                s.executeQuery("SELECT v FROM t WHERE id = 1").close();
                s.executeQuery("SELECT v FROM t WHERE id = 1").close();
            }
            assertTrue(value(scrape(c), "phalanx_cache_hits_total", "vdb", "vdb")
                    > value(after, "phalanx_cache_hits_total", "vdb", "vdb"));

            // a backend taken out of service shows as down, and falls behind the log as writes go on
            c.vdb().disableBackend("db2");
            c.workload(5);
            List<PrometheusText.Sample> disabled = scrape(c);
            assertEquals(0, value(disabled, "phalanx_backend_up", "backend", "db2"));
            assertEquals(1, value(disabled, "phalanx_backend_state", "backend", "db2", "state", "DISABLED"));
            assertEquals(0, value(disabled, "phalanx_backend_state", "backend", "db2", "state", "ENABLED"));
            assertTrue(value(disabled, "phalanx_backend_replay_lag_entries", "backend", "db2") >= 5);
            assertEquals(0, value(disabled, "phalanx_backend_replay_lag_entries", "backend", "db1"));

            c.vdb().enableBackend("db2");
            List<PrometheusText.Sample> enabled = scrape(c);
            assertEquals(1, value(enabled, "phalanx_backend_up", "backend", "db2"));
            assertEquals(0, value(enabled, "phalanx_backend_replay_lag_entries", "backend", "db2"));
            assertEquals(0, value(enabled, "phalanx_verification_running", "vdb", "vdb"));
            assertTrue(enabled.stream().noneMatch(s -> s.name().equals("phalanx_verification_differences")),
                    "no verification has run yet");

            // a verification finds the row changed on db1 behind the controller's back
            try (Connection direct = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("db1.db"));
                 Statement s = direct.createStatement()) {
                s.executeUpdate("UPDATE t SET v = 'tampered' WHERE id = 3");
            }
            c.vdb().verify("");
            List<PrometheusText.Sample> verified = scrape(c);
            assertEquals(1, value(verified, "phalanx_verification_differences", "vdb", "vdb"));
            assertEquals(1, value(verified, "phalanx_verification_outvoted", "vdb", "vdb", "backend", "db1"));
            assertTrue(value(verified, "phalanx_verification_rows_compared", "vdb", "vdb") >= 46);
            assertTrue(value(verified, "phalanx_verification_last_run_timestamp_seconds", "vdb", "vdb") > 1.7e9);
        }
    }

    @Test
    void metricsLoginAsksForAnAdmin() throws Exception {
        try (MonitoredController c = new MonitoredController(dir, "metricsLogin=\"true\"")) {
            assertEquals(401, c.get("/metrics").statusCode());
            assertEquals(401, c.get("/metrics", "Authorization", basic("admin", "wrong")).statusCode());
            var reply = c.get("/metrics", "Authorization", basic(MonitoredController.ADMIN, MonitoredController.ADMIN_PASSWORD));
            assertEquals(200, reply.statusCode());
            assertTrue(PrometheusText.parse(reply.body()).stream().anyMatch(s -> s.family().equals("phalanx_requests")));
        }
    }

    @Test
    void metricsCanBeTurnedOff() throws Exception {
        try (MonitoredController c = new MonitoredController(dir, "metrics=\"false\"")) {
            assertEquals(404, c.get("/metrics").statusCode());
            assertEquals(303, c.get("/").statusCode(), "the dashboard is still served");
        }
    }

    /** The sample Grafana dashboard asks only for what /metrics serves. */
    @Test
    void theGrafanaSampleQueriesServedMetricsOnly() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Path.of("..", "samples", "grafana", "phalanx-dashboard.json").toFile());
        List<String> expressions = dashboard.findValues("expr").stream().map(JsonNode::asText).toList();
        assertTrue(expressions.size() >= 10, "panels: " + expressions);
        try (MonitoredController c = new MonitoredController(dir, "")) {
            c.workload(2);
            try (Connection conn = c.connect(); Statement s = conn.createStatement()) {
                s.executeQuery("SELECT v FROM t WHERE id = 1").close();
            }
            try (Connection direct = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("db3.db"));
                 Statement s = direct.createStatement()) {
                s.executeUpdate("DELETE FROM t WHERE id = 1"); // so that an outvoted replica is shown too
            }
            c.vdb().verify("");
            Set<String> served = scrape(c).stream().map(PrometheusText.Sample::name).collect(Collectors.toSet());
            Matcher names = Pattern.compile("\\b((?:phalanx|jvm)_[a-z_]+)").matcher(String.join("\n", expressions));
            int checked = 0;
            while (names.find()) {
                assertTrue(served.contains(names.group(1)), names.group(1) + " is not served; served: " + served);
                checked++;
            }
            assertTrue(checked >= 20, "metric names in the sample: " + checked);
        }
    }

    @Test
    void overHttpsOnly() throws Exception {
        Path keys = Keytool.selfSigned(dir.resolve("http.p12"), "keypass");
        KeyStore own = KeyStore.getInstance("PKCS12");
        try (var in = java.nio.file.Files.newInputStream(keys)) {
            own.load(in, "keypass".toCharArray());
        }
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("controller", own.getCertificate("phalanx"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trusted);
        SSLContext trust = SSLContext.getInstance("TLS");
        trust.init(null, tmf.getTrustManagers(), null);

        try (MonitoredController c = new MonitoredController(dir.resolve("cluster"), "", true,
                "<tls keyStore=\"" + keys + "\" keyStorePassword=\"keypass\"/>", trust)) {
            c.workload(3);
            assertTrue(value(scrape(c), "phalanx_requests_total", "vdb", "vdb", "kind", "write") >= 3);
            var plain = java.net.http.HttpClient.newHttpClient();
            assertThrows(java.io.IOException.class, () -> plain.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + c.controller.httpPort() + "/metrics")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()), "no plain HTTP on a TLS port");
            var login = c.http.send(java.net.http.HttpRequest.newBuilder(c.uri("/api/login"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("user=admin&password="
                            + MonitoredController.ADMIN_PASSWORD)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertTrue(login.headers().firstValue("Set-Cookie").orElseThrow().contains("Secure"), "the cookie stays on HTTPS");
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
