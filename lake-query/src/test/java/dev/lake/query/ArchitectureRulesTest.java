package dev.lake.query;

import dev.lake.query.model.InexactResultException;
import dev.lake.query.model.PushdownStats;
import dev.lake.query.model.QueryDataException;
import dev.lake.query.model.QueryRejectedException;
import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaParameterizedType;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.JavaWildcardType;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.Queue;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md, "Modules and what they may import", for lake-query (main classes), and its package rules:
 * every package is a slice, the root package included, and no two of them depend on each other in a cycle; the
 * vectorized executor imports no Calcite and hands out its results as columns, never as rows.
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
        .and(methods().that().areDeclaredInClassesThat().resideInAPackage("dev.lake.query.vector..").and()
            .areNotPrivate().should(notReturnRows())
            .because("the vectorized executor's results stay columnar to the wire (VectorResult, written into Arrow"
                + " batches); a conversion to Calcite's rows is the planner's (dev.lake.query.plan.vector)"))
        .and(slices().matching("dev.lake.(**)").should().beFreeOfCycles()
            .because("lake-query's packages (the root package and each sub-package) form no cycle"))
        .and(noClasses().that().resideInAPackage("dev.lake.query.model").should().dependOnClassesThat()
            .resideInAnyPackage("dev.lake.query", "dev.lake.query.exec..", "dev.lake.query.guard..",
                "dev.lake.query.plan..", "dev.lake.query.sql..", "dev.lake.query.vector..").allowEmptyShould(true)
            .because("the shared values and errors depend on no other package of lake-query"))
        .check(CLASSES);
  }

  /**
   * Rows in the row runtime's representation: an {@code Object[]} (a row), or a container of them or of untyped
   * values ({@code List<Object[]>}, {@code Iterator<Object[]>}, {@code List<Object>}, {@code Iterable<List<?>>} ...).
   */
  private static ArchCondition<JavaMethod> notReturnRows() {
    return new ArchCondition<>("not return rows (Object[], or a collection, iterator or stream of rows or values)") {
      @Override
      public void check(JavaMethod method, ConditionEvents events) {
        JavaType returned = method.getReturnType();
        if (isRow(returned.toErasure()) || holdsRows(returned)) {
          events.add(SimpleConditionEvent.violated(method, method.getFullName() + " returns rows: "
              + returned.getName()));
        }
      }
    };
  }

  /** The JDK's containers a row list comes in (the class path is not resolved: matched by name). */
  private static final Set<String> CONTAINERS = Set.of(Iterable.class.getName(), Collection.class.getName(),
      List.class.getName(), Iterator.class.getName(), ListIterator.class.getName(), Stream.class.getName(),
      Deque.class.getName(), Queue.class.getName(), Set.class.getName());

  private static boolean isRow(JavaClass type) {
    return type.isArray() && type.getComponentType().getName().equals(Object.class.getName());
  }

  /**
   * Whether a type holds rows: Object[] among its type arguments (at any depth), or a JDK container of untyped
   * values ({@code List<Object>}, {@code Iterator<?>}, a raw {@code List}, a list of such lists).
   */
  private static boolean holdsRows(JavaType type) {
    boolean container = CONTAINERS.contains(type.toErasure().getName());
    if (!(type instanceof JavaParameterizedType)) {
      return container && !type.toErasure().isArray();
    }
    for (JavaType argument : ((JavaParameterizedType) type).getActualTypeArguments()) {
      if (argument instanceof JavaWildcardType) {
        if (container) {
          return true;
        }
        continue;
      }
      JavaClass erased = argument.toErasure();
      if (isRow(erased) || (container && erased.getName().equals(Object.class.getName()))
          || (CONTAINERS.contains(erased.getName()) && holdsRows(argument))) {
        return true;
      }
    }
    return false;
  }
}
