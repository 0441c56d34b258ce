package dev.lake.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md, "Modules and what they may import", for lake-it (test classes only: it has no others). It
 * imports all lake modules, except the Spark reader, which runs in a child JVM on its own class path.
 */
class ArchitectureRulesTest {
  static {
    // Rules name the classes depended on; loading them (and theirs) from the class path would only cost time.
    ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
  }

  private static final JavaClasses CLASSES = new ClassFileImporter().importPath(Path.of("target", "test-classes"));

  @Test
  void architectureRulesHold() {
    CompositeArchRule
        .of(noClasses().should().dependOnClassesThat().resideInAPackage("dev.lake.spark..")
            .because("the Spark reader runs in a child JVM (lance-core 4.0.0 cannot share lake's class path)"))
        .and(slices().matching("dev.lake.(**)").should().beFreeOfCycles())
        .and(noClasses().that().resideInAPackage("dev.lake.it.support..")
            .should().dependOnClassesThat().resideInAPackage("dev.lake.it")
            .because("the test support layer lies below the tests that use it"))
        .check(CLASSES);
  }
}
