package org.phalanx.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The bench's layering (bench/README.md): report (formatting) at the bottom, then workload,
 * cluster, harness (options, closed loops, variants, summaries), the scenarios, and the main
 * class with its list of scenarios on top. Main code only.
 */
@AnalyzeClasses(packages = "org.phalanx.bench", importOptions = ImportOption.DoNotIncludeTests.class)
class BenchArchitectureTest {

    /** {@code (**)} captures a class's whole package below org.phalanx: every package is a slice. */
    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("org.phalanx.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule onlyTheMainClassKnowsTheScenarios = noClasses()
            .that().resideOutsideOfPackages("org.phalanx.bench", "org.phalanx.bench.scenario")
            .should().dependOnClassesThat().resideInAPackage("org.phalanx.bench.scenario");

    @ArchTest
    static final ArchRule reportsFormatOnly = noClasses()
            .that().resideInAPackage("org.phalanx.bench.report")
            .should().dependOnClassesThat().resideInAnyPackage("org.phalanx.bench", "org.phalanx.bench.harness",
                    "org.phalanx.bench.scenario", "org.phalanx.bench.cluster", "org.phalanx.bench.workload");
}
