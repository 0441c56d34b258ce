package dev.lake.query.plan;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import dev.lake.query.vector.VectorPlan;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.Function0;

/**
 * One pushed-down subtree as Calcite's generated code calls it (stashed by {@link EnumerableLanceSqlScan#implement}):
 * it names the table reference, not a reader, and finds the execution's {@link ScanSource} in the data context at
 * run time, so the compiled plan is the same for every execution.
 */
public record LanceSqlCall(String reference, String sql, List<ColumnType> columns, RowShape shape,
    Optional<VectorPlan> vector) {
  public LanceSqlCall {
    Objects.requireNonNull(reference, "reference");
    Objects.requireNonNull(sql, "sql");
    columns = List.copyOf(columns);
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(vector, "vector");
  }

  /**
   * The rows of the statement, or of {@code fallback} (the same subtree run by Calcite) if Lance rejects it; called by
   * generated code with the execution's data context.
   */
  @SuppressWarnings("unchecked")
  public Enumerable<Object> rows(DataContext root, Function0<?> fallback) {
    Object source = root.get(LanceScanCall.sourceVariable(reference));
    if (!(source instanceof ScanSource)) {
      throw new IllegalStateException("no scan source is bound for table reference '" + reference + "'");
    }
    if (vector.isPresent()) {
      return ((ScanSource) source).vectorRows(vector.get(), shape);
    }
    return ((ScanSource) source).sqlRows(sql, columns, shape, () -> (Enumerable<Object>) fallback.apply());
  }
}
