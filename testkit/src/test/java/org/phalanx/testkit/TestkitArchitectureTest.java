package org.phalanx.testkit;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The test kit's packages (jdbc, process, db) form no cycle. Main code only. */
@AnalyzeClasses(packages = "org.phalanx.testkit", importOptions = ImportOption.DoNotIncludeTests.class)
class TestkitArchitectureTest {

    /** {@code (**)} captures a class's whole package below org.phalanx: every package is a slice. */
    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("org.phalanx.(**)").should().beFreeOfCycles();
}
