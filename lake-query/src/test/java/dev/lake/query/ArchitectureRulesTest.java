package dev.lake.query;

import dev.lake.query.model.InexactResultException;
import dev.lake.query.model.PushdownStats;
import dev.lake.query.model.QueryDataException;
import dev.lake.query.model.QueryRejectedException;
import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md, "Modules and what they may import", for lake-query (main classes), and its package rules:
 * every package is a slice, the root package included, and no two of them depend on each other in a cycle.
 */
class ArchitectureRulesTest {
  static {
    // Rules name the classes depended on; loading them (and theirs) from the class path would only cost time.
    ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
  }

  private static final JavaClasses CLASSES = new ClassFileImporter().importPath(Path.of("target", "classes"));

  @Test
  void architectureRulesHold() {
    CompositeArchRule
        .of(noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.lake.metasrv..", "dev.lake.flight..",
            "dev.lake.it..", "dev.lake.spark..")
            .because("lake-query imports registry + engine only; query and metasrv never import each other"))
        .and(noClasses().that().resideInAPackage("dev.lake.query.vector..").should().dependOnClassesThat()
            .resideInAPackage("org.apache.calcite..")
            .because("the vectorized executor imports no Calcite (plan-facing code is in dev.lake.query.plan.vector)"))
        .and(slices().matching("dev.lake.(**)").should().beFreeOfCycles()
            .because("lake-query's packages (the root package and each sub-package) form no cycle"))
        .and(noClasses().that().resideInAPackage("dev.lake.query.model").should().dependOnClassesThat()
            .resideInAnyPackage("dev.lake.query", "dev.lake.query.exec..", "dev.lake.query.guard..",
                "dev.lake.query.plan..", "dev.lake.query.sql..", "dev.lake.query.vector..").allowEmptyShould(true)
            .because("the shared values and errors depend on no other package of lake-query"))
        .check(CLASSES);
  }
}
