package org.phalanx.recoverylog;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The recovery log's layering (docs/architecture.md): no package cycle, and the log itself does
 * not depend on the dumps (backup and restore use the log's checkpoints, not the reverse). Main
 * code only.
 */
@AnalyzeClasses(packages = "org.phalanx.recoverylog", importOptions = ImportOption.DoNotIncludeTests.class)
class RecoveryLogArchitectureTest {

    /** {@code (**)} captures a class's whole package below org.phalanx: every package is a slice. */
    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("org.phalanx.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theLogDoesNotDependOnDumps = noClasses()
            .that().resideInAPackage("org.phalanx.recoverylog")
            .should().dependOnClassesThat().resideInAPackage("org.phalanx.recoverylog.dump..");
}
