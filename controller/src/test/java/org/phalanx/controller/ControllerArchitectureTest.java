package org.phalanx.controller;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
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

    /**
     * The request manager's public API: the facade's package, api, config and stats, and
     * distribution (a controller's part in a group: GroupConfig, GroupMember, GroupStatus), and
     * verify's public types (the verification request, report and progress; the rest is package-private).
     */
    private static final Set<String> REQUEST_MANAGER_API = Set.of(REQUEST_MANAGER, REQUEST_MANAGER + ".api",
            REQUEST_MANAGER + ".config", REQUEST_MANAGER + ".stats", REQUEST_MANAGER + ".distribution",
            REQUEST_MANAGER + ".verify");

    private static final DescribedPredicate<JavaClass> REQUEST_MANAGER_INTERNALS = DescribedPredicate.describe(
            "belong to the request manager outside its public API " + REQUEST_MANAGER_API.stream().sorted().toList(),
            c -> {
                String pkg = c.getBaseComponentType().getPackageName(); // an array counts as its element type
                boolean requestManager = pkg.equals(REQUEST_MANAGER) || pkg.startsWith(REQUEST_MANAGER + ".");
                return requestManager && !REQUEST_MANAGER_API.contains(pkg);
            });

    /** {@code (**)} captures a class's whole package below org.phalanx: every package is a slice. */
    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("org.phalanx.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule requestManagerOnlyThroughItsPublicApi = noClasses()
            .that().resideInAPackage(CONTROLLER + "..")
            .should().dependOnClassesThat(REQUEST_MANAGER_INTERNALS);
}
