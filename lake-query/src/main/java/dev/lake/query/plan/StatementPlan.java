package dev.lake.query.plan;

import java.util.Objects;
import java.util.Optional;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.SqlExplainLevel;

/**
 * An optimized statement and the path that runs it: either one Lance scan whose batches pass through unchanged, or
 * an Enumerable plan that Calcite runs row by row.
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

  /** The plan as text for EXPLAIN: the path taken, then the operator tree. */
  public String explain() {
    RelNode rel = passThrough.isPresent() ? passThrough.get() : (RelNode) enumerable.get();
    String header;
    if (passThrough.isPresent()) {
      LanceTableScan scan = passThrough.get();
      header = "pass-through: Lance streams the stored batches of table " + scan.lanceTable().name()
          + " version " + scan.lanceTable().pin().version() + " unchanged (projection, filter and limit pushed"
          + " into the scan)";
    } else {
      header = "calcite: Calcite's Enumerable runtime computes the rows (Lance scans below it get their"
          + " projections and filters pushed; computed TIME/TIMESTAMP values carry milliseconds)";
    }
    return header + "\n" + RelOptUtil.toString(rel, SqlExplainLevel.EXPPLAN_ATTRIBUTES).strip();
  }
}
