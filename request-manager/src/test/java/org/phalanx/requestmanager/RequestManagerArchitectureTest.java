package org.phalanx.requestmanager;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The request manager's layering (docs/architecture.md, "Layers"): its packages, the root one
 * included, form no cycle, and only the root package (the composition root) builds on the others
 * as a whole. Main code only: tests may look inside.
 */
@AnalyzeClasses(packages = "org.phalanx.requestmanager", importOptions = ImportOption.DoNotIncludeTests.class)
class RequestManagerArchitectureTest {
    private static final String ROOT = "org.phalanx.requestmanager";

    /** Every package is a slice of its own, the root package too. */
    private static final SliceAssignment EACH_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String pkg = c.getPackageName();
            return pkg.equals(ROOT) || pkg.startsWith(ROOT + ".") ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package of " + ROOT;
        }
    };

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().assignedFrom(EACH_PACKAGE).should().beFreeOfCycles();

    @ArchTest
    static final ArchRule nothingDependsOnTheCompositionRoot = noClasses()
            .that().resideInAPackage(ROOT + ".*..")
            .should().dependOnClassesThat().resideInAPackage(ROOT);
}
