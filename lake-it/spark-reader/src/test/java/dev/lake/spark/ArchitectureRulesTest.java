package dev.lake.spark;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/architecture.md: the Spark reader shares no class with lake (lance-core 4.0.0 on its own class path). */
class ArchitectureRulesTest {
  static {
    // Rules name the classes depended on; loading them (and theirs) from the class path would only cost time.
    ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
  }

  private static final JavaClasses CLASSES = new ClassFileImporter().importPath(Path.of("target", "classes"));

  @Test
  void architectureRulesHold() {
    noClasses()
        .should().dependOnClassesThat(resideInAPackage("dev.lake..").and(resideOutsideOfPackage("dev.lake.spark..")))
        .because("the Spark reader runs in a child JVM and imports no lake module")
        .check(CLASSES);
  }
}
