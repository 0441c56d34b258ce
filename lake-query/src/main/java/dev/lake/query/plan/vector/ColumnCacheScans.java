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
    try {
      VectorPlanner.ScanColumns read = VectorPlanner.scanColumns(scan);
      if (scan.condition().isPresent() && read.filter().isEmpty()) {
        return Optional.empty();
      }
      List<VectorPlan.Output> types = new ArrayList<>();
      for (RelDataTypeField field : scan.getRowType().getFieldList()) {
        // Unsupported when a column's values are not converted to the row runtime's (that scan reads Lance)
        types.add(ExprCompiler.output(field.getType()));
      }
      return Optional.of(new LanceTableScan.CacheRead(new CachedScan(read.columns(), columns.size(), read.filter()),
          types));
    } catch (Unsupported e) {
      return Optional.empty();
    }
  }
}
