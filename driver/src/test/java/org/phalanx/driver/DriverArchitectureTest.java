package org.phalanx.driver;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The driver's layering (docs/architecture.md): the wire protocol knows nothing of the JDBC
 * classes built on it, so the controller can share it. Main code only.
 */
@AnalyzeClasses(packages = {"org.phalanx.driver", "org.phalanx.protocol"},
        importOptions = ImportOption.DoNotIncludeTests.class)
class DriverArchitectureTest {

    /** {@code (**)} captures a class's whole package below org.phalanx: every package is a slice. */
    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("org.phalanx.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule protocolDoesNotKnowTheDriver = noClasses()
            .that().resideInAPackage("org.phalanx.protocol..")
            .should().dependOnClassesThat().resideInAPackage("org.phalanx.driver..");
}
