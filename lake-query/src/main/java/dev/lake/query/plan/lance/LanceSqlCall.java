package dev.lake.query.plan.lance;

import dev.lake.query.plan.types.ColumnType;
import dev.lake.query.plan.types.RowShape;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.Function0;

/**
 * One pushed-down subtree as Calcite's generated code calls it (stashed by {@link EnumerablePushedSubtree#implement}):
 * it names the table reference, not a reader, and finds the execution's {@link ScanSource} in the data context at
 * run time, so the compiled plan is the same for every execution.
 */
public record LanceSqlCall(String reference, String sql, List<ColumnType> columns, RowShape shape,
    SubtreeEngine engine) {
  public LanceSqlCall {
    Objects.requireNonNull(reference, "reference");
    Objects.requireNonNull(sql, "sql");
    columns = List.copyOf(columns);
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(engine, "engine");
  }

  /**
   * The rows of the subtree from the engine the planner chose: the vectorized executor, or Lance's SQL engine — and
   * then, if Lance rejects the statement before its first row, from {@code fallback} (the same subtree run by
   * Calcite: the run-time fall-back, {@link ScanSource#sqlRows}); called by generated code with the execution's data
   * context.
   */
  @SuppressWarnings("unchecked")
  public Enumerable<Object> rows(DataContext root, Function0<?> fallback) {
    Object source = root.get(LanceScanCall.sourceVariable(reference));
    if (!(source instanceof ScanSource)) {
      throw new IllegalStateException("no scan source is bound for table reference '" + reference + "'");
    }
    if (engine instanceof SubtreeEngine.Vectorized) {
      return ((ScanSource) source).vectorRows(((SubtreeEngine.Vectorized) engine).plan(), shape);
    }
    return ((ScanSource) source).sqlRows(sql, columns, shape, () -> (Enumerable<Object>) fallback.apply());
  }
}
