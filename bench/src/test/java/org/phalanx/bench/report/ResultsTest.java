package org.phalanx.bench.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsTest {

    @Test
    void handWrittenComparisonsFollowTheGeneratedSections(@TempDir Path out) throws Exception {
        Results.writeMachine(out, Map.of("cores", "2"));
        Files.createDirectories(out.resolve("results/hop-cost"));
        Files.writeString(out.resolve("results/hop-cost/section.md"), "## 1. Hop cost\n\nfigures\n");
        Files.writeString(out.resolve("results").resolve(Results.COMPARISONS), "## Before and after\n\nratios\n");

        String md = Files.readString(Results.assemble(out, List.of("hop-cost")));

        int section = md.indexOf("## 1. Hop cost");
        int comparisons = md.indexOf("## Before and after");
        int missed = md.indexOf("## Missed targets");
        assertTrue(section > 0 && section < comparisons && comparisons < missed, md);
    }

    @Test
    void withoutComparisonsNothingIsAdded(@TempDir Path out) throws Exception {
        Results.writeMachine(out, Map.of("cores", "2"));
        String md = Files.readString(Results.assemble(out, List.of("hop-cost")));
        assertTrue(!md.contains("Before and after") && md.contains("## Missed targets"), md);
    }
}
