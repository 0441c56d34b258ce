package dev.lake.query.plan.vector;

import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.plan.lance.RuntimeFilter;
import dev.lake.query.vector.CachedScan;
import dev.lake.query.vector.Unsupported;
import dev.lake.query.vector.VectorPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The last step of {@link dev.lake.query.plan.EngineChoice}'s policy, on the physical plan: each Lance scan that
 * Calcite's runtime reads
 * reads the vectorized executor's column cache instead when the executor can evaluate it — no limit (a limit reads
 * little), at least one column, its condition compiled, runtime filters only on integer columns it reads (tested as
 * IN-sets), every output column of a type the executor converts to the row runtime's. Whether the cache holds the
 * columns is decided when the scan opens; otherwise it reads Lance.
 */
public final class ColumnCacheScans {
  private ColumnCacheScans() {}

  /** {@code plan} with every scan that may read the column cache saying how. */
  public static RelNode apply(RelNode plan) {
    if (plan instanceof LanceTableScan) {
      LanceTableScan scan = (LanceTableScan) plan;
      return scan.withColumnCache(read(scan));
    }
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : plan.getInputs()) {
      RelNode rewritten = apply(input);
      changed |= rewritten != input;
      inputs.add(rewritten);
    }
    return changed ? plan.copy(plan.getTraitSet(), inputs) : plan;
  }

  /** How {@code scan} reads the column cache, or empty when it must read Lance. */
  static Optional<LanceTableScan.CacheRead> read(LanceTableScan scan) {
    List<String> columns = scan.columnNames();
    if (scan.limit().isPresent() || columns.isEmpty() || scan.filter().isPresent() && scan.condition().isEmpty()) {
      return Optional.empty();
    }
    for (RuntimeFilter runtime : scan.runtimeFilters()) {
      // tested over cached columns as an IN-set of integers (InKeys): the column must be read and hold integers
      int at = columns.indexOf(runtime.column());
      SqlTypeName type = at < 0 ? null : scan.getRowType().getFieldList().get(at).getType().getSqlTypeName();
      if (type != SqlTypeName.BIGINT && type != SqlTypeName.INTEGER && type != SqlTypeName.SMALLINT
          && type != SqlTypeName.TINYINT) {
        return Optional.empty();
      }
    }
    return cacheRead(scan, scan.condition());
  }

  /**
   * How a statement that is one pass-through scan ({@code scan}, its condition {@code condition}: its own, or a
   * parameterized scan's with one execution's values bound) reads the column cache, when the executor can evaluate
   * it: at least one column, the condition (if any) compiled, every output column of a type the executor writes into
   * the result, and a condition or a limit to apply (a whole unfiltered scan moves Lance's buffers as they are, cheaper
   * than writing cached values into new ones). Its limit is applied by the reader. Whether the cache holds the
   * columns is decided when it runs.
   */
  public static Optional<LanceTableScan.CacheRead> passThrough(LanceTableScan scan, Optional<RexNode> condition) {
    List<String> columns = scan.columnNames();
    if (columns.isEmpty() || !scan.runtimeFilters().isEmpty() || scan.filter().isPresent() && condition.isEmpty()
        || condition.isEmpty() && scan.limit().isEmpty()) {
      return Optional.empty();
    }
    return cacheRead(scan, condition);
  }

  /** The cached scan of {@code scan}'s columns with {@code condition} compiled, or empty when it cannot be. */
  private static Optional<LanceTableScan.CacheRead> cacheRead(LanceTableScan scan, Optional<RexNode> condition) {
    try {
      VectorPlanner.ScanColumns read = VectorPlanner.scanColumns(scan, condition);
      if (condition.isPresent() && read.filter().isEmpty()) {
        return Optional.empty();
      }
      List<VectorPlan.Output> types = new ArrayList<>();
      for (RelDataTypeField field : scan.getRowType().getFieldList()) {
        // Unsupported when a column's values are not converted to the row runtime's (that scan reads Lance)
        types.add(ExprCompiler.output(field.getType()));
      }
      return Optional.of(new LanceTableScan.CacheRead(new CachedScan(read.columns(), scan.columnNames().size(),
          read.filter(), read.key()), types));
    } catch (Unsupported e) {
      return Optional.empty();
    }
  }
}
