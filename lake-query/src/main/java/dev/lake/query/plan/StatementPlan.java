package dev.lake.query.plan;

import java.util.Objects;
import java.util.Optional;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.rel.RelNode;

/**
 * An optimized statement and the path that runs it: one Lance scan whose batches pass through unchanged; one
 * statement run whole by Lance's SQL engine, its batches streamed (the plan is then a single
 * {@link EnumerableLanceSqlScan}, whose fallback Calcite runs if Lance rejects it); or an Enumerable plan that
 * Calcite runs row by row, possibly over pushed-down subtrees.
 *
 * @param passThrough the scan, when the whole statement is one scan of stored columns with pushed filter and limit
 * @param enumerable the Calcite plan otherwise
 */
public record StatementPlan(Optional<LanceTableScan> passThrough, Optional<EnumerableRel> enumerable) {
  public StatementPlan {
    Objects.requireNonNull(passThrough, "passThrough");
    Objects.requireNonNull(enumerable, "enumerable");
    if (passThrough.isPresent() == enumerable.isPresent()) {
      throw new IllegalArgumentException("a plan has exactly one path");
    }
  }

  static StatementPlan passThrough(LanceTableScan scan) {
    return new StatementPlan(Optional.of(scan), Optional.empty());
  }

  static StatementPlan enumerable(EnumerableRel rel) {
    return new StatementPlan(Optional.empty(), Optional.of(rel));
  }

  /** The pushed-down statement, when Lance's SQL engine runs the whole statement. */
  public Optional<EnumerableLanceSqlScan> lanceSql() {
    return enumerable.filter(EnumerableLanceSqlScan.class::isInstance).map(EnumerableLanceSqlScan.class::cast);
  }

  /** The path's name, for logs: pass-through, lance-sql or calcite. */
  public String path() {
    return passThrough.isPresent() ? "pass-through" : lanceSql().isPresent()
        ? (lanceSql().get().statement().vector().isPresent() ? "vectorized" : "lance-sql")
        : vectorJoin(enumerable.get()) != null ? "join-vectorized" : "calcite";
  }

  /** The first vectorized join in {@code rel}'s tree, or null. */
  private static EnumerableVectorJoin vectorJoin(RelNode rel) {
    if (rel instanceof EnumerableVectorJoin) {
      return (EnumerableVectorJoin) rel;
    }
    for (RelNode input : rel.getInputs()) {
      EnumerableVectorJoin found = vectorJoin(input);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /** The plan as text for EXPLAIN: the path taken, then the operator tree. */
  public String explain() {
    RelNode rel = passThrough.isPresent() ? passThrough.get() : (RelNode) enumerable.get();
    String header;
    if (passThrough.isPresent()) {
      LanceTableScan scan = passThrough.get();
      header = "pass-through: Lance streams the stored batches of table " + scan.lanceTable().name()
          + " version " + scan.lanceTable().pin().version() + " unchanged (projection, filter and limit pushed"
          + " into the scan)";
    } else if (lanceSql().isPresent() && lanceSql().get().statement().vector().isPresent()) {
      PushedStatement sql = lanceSql().get().statement();
      header = "vectorized: lake's vectorized operators run the whole statement on table " + sql.table().name()
          + " version " + sql.table().pin().version() + " (pushed: " + String.join(", ", sql.pushed())
          + "; why: " + sql.why() + ")";
    } else if (lanceSql().isPresent()) {
      PushedStatement sql = lanceSql().get().statement();
      header = "lance-sql: the whole statement runs in Lance's SQL engine on table " + sql.table().name()
          + " version " + sql.table().pin().version() + " and its Arrow batches stream out (pushed: "
          + String.join(", ", sql.pushed()) + ")";
    } else if (vectorJoin(rel) != null) {
      EnumerableVectorJoin join = vectorJoin(rel);
      header = "join-vectorized: lake's vectorized operators scan table " + join.table().name() + " version "
          + join.table().pin().version() + " and probe hash tables of the other join inputs, which Calcite's"
          + " Enumerable runtime (or a pushed-down subtree) computes first; the rest runs in Calcite's runtime";
    } else {
      header = "calcite: Calcite's Enumerable runtime computes the rows (LanceSqlScan subtrees run in Lance's SQL"
          + " engine, Lance scans below it get their projections and filters pushed)";
    }
    return header + "\n" + PushedDownPlan.text(rel);
  }
}
