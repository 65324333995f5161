package org.phalanx.controller;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;

/**
 * The controller's layering (docs/architecture.md, "The controller"): its packages form no
 * cycle, and it reaches the request manager through its public API only. Main code only: tests
 * may look inside.
 */
@AnalyzeClasses(packages = "org.phalanx.controller", importOptions = ImportOption.DoNotIncludeTests.class)
class ControllerArchitectureTest {
    private static final String CONTROLLER = "org.phalanx.controller";
    private static final String REQUEST_MANAGER = "org.phalanx.requestmanager";

    /** The request manager's public API: the facade's package, api, config and stats. */
    private static final Set<String> REQUEST_MANAGER_API = Set.of(REQUEST_MANAGER, REQUEST_MANAGER + ".api",
            REQUEST_MANAGER + ".config", REQUEST_MANAGER + ".stats");

    /** Every package of the controller is a slice of its own, the root package too. */
    private static final SliceAssignment EACH_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String pkg = c.getPackageName();
            return pkg.equals(CONTROLLER) || pkg.startsWith(CONTROLLER + ".")
                    ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package of " + CONTROLLER;
        }
    };

    private static final DescribedPredicate<JavaClass> REQUEST_MANAGER_INTERNALS = DescribedPredicate.describe(
            "belong to the request manager outside its public API " + REQUEST_MANAGER_API.stream().sorted().toList(),
            c -> {
                String pkg = c.getBaseComponentType().getPackageName(); // Engine[] is Engine
                boolean requestManager = pkg.equals(REQUEST_MANAGER) || pkg.startsWith(REQUEST_MANAGER + ".");
                return requestManager && !REQUEST_MANAGER_API.contains(pkg);
            });

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().assignedFrom(EACH_PACKAGE).should().beFreeOfCycles();

    @ArchTest
    static final ArchRule requestManagerOnlyThroughItsPublicApi = noClasses()
            .that().resideInAPackage(CONTROLLER + "..")
            .should().dependOnClassesThat(REQUEST_MANAGER_INTERNALS);
}
