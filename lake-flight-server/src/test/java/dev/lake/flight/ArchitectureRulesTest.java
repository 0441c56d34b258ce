package dev.lake.flight;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md, "Modules and what they may import", for lake-flight-server (main classes), and its package
 * rules. The root package {@code dev.lake.flight} is the composition layer (the producer, {@code LakeServer},
 * {@code Main}): it may use every sub-package, and no sub-package uses it.
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
        .of(noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.lake.it..", "dev.lake.spark..")
            .because("lake-flight-server imports query + metasrv (and what they import), never the test modules"))
        .and(slices().matching("dev.lake.(**)").should().beFreeOfCycles()
            .because("every package of lake-flight-server (the root one included) is a slice, and they form no cycle"))
        .and(noClasses().that().resideInAPackage("dev.lake.flight.*..")
            .should().dependOnClassesThat().resideInAPackage("dev.lake.flight")
            .because("the root package composes the sub-packages; none of them reaches back into it"))
        .and(noClasses().that().resideInAnyPackage("dev.lake.flight.cluster..", "dev.lake.flight.spool..")
            .should().dependOnClassesThat().resideInAPackage("dev.lake.flight")
            .because("cluster and spool reach the producer only through the interfaces they declare"))
        .and(classes().that().resideInAPackage("dev.lake.flight.cli..")
            .should().onlyDependOnClassesThat(resideOutsideOfPackage("dev.lake..")
                .or(resideInAnyPackage("dev.lake.flight.cli..", "dev.lake.flight.arrow..",
                    "dev.lake.registry.error..")))
            .because("the client commands are plain Flight SQL clients: they import no server-side package"))
        .check(CLASSES);
  }
}
