package org.phalanx.requestmanager;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The request manager's layering (docs/architecture.md, "Layers"): its packages, the root one
 * included, form no cycle, and only the root package (the composition root) builds on the others
 * as a whole. Main code only: tests may look inside.
 */
@AnalyzeClasses(packages = "org.phalanx.requestmanager", importOptions = ImportOption.DoNotIncludeTests.class)
class RequestManagerArchitectureTest {
    private static final String ROOT = "org.phalanx.requestmanager";

    /** {@code (**)} captures a class's whole package below org.phalanx: every package is a slice. */
    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("org.phalanx.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule nothingDependsOnTheCompositionRoot = noClasses()
            .that().resideInAPackage(ROOT + ".*..")
            .should().dependOnClassesThat().resideInAPackage(ROOT);
}
