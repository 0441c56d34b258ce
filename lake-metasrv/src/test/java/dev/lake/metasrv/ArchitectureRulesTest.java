package dev.lake.metasrv;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/architecture.md, "Modules and what they may import", for lake-metasrv (main classes). */
class ArchitectureRulesTest {
  static {
    // Rules name the classes depended on; loading them (and theirs) from the class path would only cost time.
    ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
  }

  private static final JavaClasses CLASSES = new ClassFileImporter().importPath(Path.of("target", "classes"));

  @Test
  void architectureRulesHold() {
    CompositeArchRule
        .of(noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.lake.query..", "dev.lake.flight..",
            "dev.lake.it..", "dev.lake.spark..")
            .because("lake-metasrv imports registry + engine only; query and metasrv never import each other"))
        .and(slices().matching("dev.lake.(**)").should().beFreeOfCycles())
        .check(CLASSES);
  }
}
