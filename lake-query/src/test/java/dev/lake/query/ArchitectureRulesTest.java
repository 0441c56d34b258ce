package dev.lake.query;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md, "Modules and what they may import", for lake-query (main classes), and its package rules.
 * Sub-packages are slices by their first name under {@code dev.lake.query} ({@code plan} and everything below it
 * is one slice), so splitting a package into sub-packages keeps these rules meaningful.
 */
class ArchitectureRulesTest {
  static {
    // Rules name the classes depended on; loading them (and theirs) from the class path would only cost time.
    ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
  }

  private static final JavaClasses CLASSES = new ClassFileImporter().importPath(Path.of("target", "classes"));

  /**
   * The types of the root package that the sub-packages share with the module's callers. The root package is also
   * the module's face ({@code QueryService} uses every sub-package), so a sub-package may use of it only these,
   * and these use no sub-package: no chain of classes leads from a sub-package back into itself through the root.
   */
  private static final Set<String> SHARED = Set.of("TableReference", "TablePin", "QueryRejectedException",
      "InexactResultException", "QueryDataException", "PushdownStats");

  private static final DescribedPredicate<JavaClass> SHARED_TYPES = DescribedPredicate.describe(
      "the root package's shared types " + SHARED, c -> c.getPackageName().equals("dev.lake.query")
          && SHARED.contains(topLevel(c).getSimpleName()));

  private static final DescribedPredicate<JavaClass> OTHER_ROOT_TYPES = DescribedPredicate.describe(
      "other classes of the root package dev.lake.query",
      c -> c.getPackageName().equals("dev.lake.query") && !SHARED.contains(topLevel(c).getSimpleName()));

  private static JavaClass topLevel(JavaClass c) {
    JavaClass top = c;
    while (top.getEnclosingClass().isPresent()) {
      top = top.getEnclosingClass().get();
    }
    return top;
  }

  @Test
  void architectureRulesHold() {
    CompositeArchRule
        .of(noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.lake.metasrv..", "dev.lake.flight..",
            "dev.lake.it..", "dev.lake.spark..")
            .because("lake-query imports registry + engine only; query and metasrv never import each other"))
        .and(slices().matching("dev.lake.query.(*)..").should().beFreeOfCycles()
            .because("lake-query's sub-packages form no cycle"))
        .and(noClasses().that().resideInAPackage("dev.lake.query.*..").should().dependOnClassesThat(OTHER_ROOT_TYPES)
            .because("sub-packages use of the root package only its shared types"))
        .and(noClasses().that(SHARED_TYPES).should().dependOnClassesThat().resideInAPackage("dev.lake.query.*..")
            .allowEmptyShould(true)
            .because("the shared types use no sub-package"))
        .check(CLASSES);
  }
}
