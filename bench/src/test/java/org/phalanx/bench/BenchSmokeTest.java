package org.phalanx.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.bench.harness.Options;
import org.phalanx.bench.harness.Scenario;
import org.phalanx.bench.scenario.DirectVsPhalanx;
import org.phalanx.testkit.db.DatabaseServer;

/**
 * The suite in quick mode (tiny datasets, one round of 0.2 s + 0.4 s per variant): checks the
 * harness works end to end — controllers start, every scenario runs every variant, results,
 * CSV, charts and RESULTS.md are written. It asserts no timing. The PostgreSQL part of the hop
 * cost scenario skips with a printed reason when the server is down, unless
 * PHALANX_REQUIRE_SERVERS=1, which makes it fail.
 */
class BenchSmokeTest {

    @Test
    void everyScenarioProducesResults() throws Exception {
        Path out = Path.of("target", "smoke").toAbsolutePath();
        Options options = Options.parse("--quick", "--no-profile", "--out", out.toString());
        List<String> failed = Bench.run(options);
        assertEquals(List.of(), failed, "scenarios that failed (see the output above)");

        assertTrue(Files.exists(out.resolve("RESULTS.md")));
        for (Scenario s : Scenarios.all()) {
            Path dir = out.resolve("results").resolve(s.id());
            assertTrue(Files.exists(dir.resolve("section.md")), s.id() + ": no section");
            List<Path> csvs;
            try (var files = Files.list(dir)) {
                csvs = files.filter(p -> p.toString().endsWith(".csv")).toList();
            }
            if (csvs.isEmpty() && !DatabaseServer.required()
                    && Files.readString(dir.resolve("section.md")).contains(DirectVsPhalanx.SKIPPED)) {
                continue; // a PostgreSQL-only scenario without the server (it said why)
            }
            assertEquals(1, csvs.size(), s.id() + ": one CSV expected");
            List<String> lines = Files.readAllLines(csvs.get(0));
            List<String> header = Arrays.asList(lines.get(0).split(","));
            if (!header.contains("class")) {
                // not a closed-loop scenario (the recovery one times operator actions): every operation has rows
                int rows = header.indexOf("rows");
                assertTrue(rows >= 0 && lines.size() > 1, s.id() + ": no operation measured");
                for (String line : lines.subList(1, lines.size())) {
                    assertTrue(Long.parseLong(line.split(",")[rows]) > 0, s.id() + ": an operation with no rows: " + line);
                }
                continue;
            }
            int cls = header.indexOf("class");
            int requests = header.indexOf("requests");
            List<String> variantsWithoutRequests = new ArrayList<>();
            int variants = 0;
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.split(",");
                if (f[cls].equals("all")) {
                    variants++;
                    if (Long.parseLong(f[requests]) == 0) {
                        variantsWithoutRequests.add(f[0]);
                    }
                }
            }
            assertTrue(variants > 0, s.id() + ": no variant ran");
            assertEquals(List.of(), variantsWithoutRequests, s.id() + ": variants that completed no request");
        }
    }
}
