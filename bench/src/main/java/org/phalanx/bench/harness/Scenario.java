package org.phalanx.bench.harness;

import org.phalanx.bench.report.Section;

/**
 * One benchmark scenario: sets up what it compares (usually one controller process hosting a
 * virtual database per variant), runs the variants alternately through
 * {@link BenchContext#alternate}, and writes its part of RESULTS.md (tables, charts, targets).
 * Adding a scenario is adding one such class to {@code org.phalanx.bench.Scenarios}.
 */
public interface Scenario {

    /** Short id, used on the command line and as the results folder name. */
    String id();

    /** Section title in RESULTS.md. */
    String title();

    void run(BenchContext ctx, Section section) throws Exception;
}
