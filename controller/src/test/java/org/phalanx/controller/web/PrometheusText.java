package org.phalanx.controller.web;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.phalanx.testkit.db.DatabaseServer;

/**
 * Parses a scrape with the Prometheus project's own Python client (Debian's
 * python3-prometheus-client, installed by .ci/run): what it accepts, Prometheus accepts. Without it
 * a test is skipped with the reason, unless PHALANX_REQUIRE_SERVERS=1 (CI), where it fails.
 */
final class PrometheusText {
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final String PARSE = """
            import sys, json
            from prometheus_client.parser import text_string_to_metric_families
            samples = []
            for family in text_string_to_metric_families(sys.stdin.read()):
                for s in family.samples:
                    samples.append({"family": family.name, "type": family.type, "name": s.name,
                                    "labels": s.labels, "value": s.value})
            print(json.dumps(samples))
            """;

    /** One sample as the parser read it. */
    record Sample(String family, String type, String name, Map<String, String> labels, double value) {
    }

    private PrometheusText() {
    }

    static void assumeInstalled() throws Exception {
        boolean installed = Files.isExecutable(PYTHON)
                && new ProcessBuilder(PYTHON.toString(), "-c", "import prometheus_client").start().waitFor() == 0;
        if (!installed) {
            String reason = "the Prometheus text-format parser is not installed"
                    + " (apt-get install python3-prometheus-client; .ci/run installs it)";
            if (DatabaseServer.required()) {
                fail(reason);
            }
            Assumptions.abort(reason);
        }
    }

    static List<Sample> parse(String text) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", PARSE).start();
        p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("the Prometheus parser refused the scrape: " + err);
        }
        return new ObjectMapper().readValue(out, new TypeReference<List<Sample>>() { });
    }
}
