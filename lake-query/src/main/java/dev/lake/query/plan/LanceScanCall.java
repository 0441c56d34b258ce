package dev.lake.query.plan;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.calcite.linq4j.Enumerable;

/**
 * One table scan as Calcite's generated code calls it: stashed in the execution's data context by
 * {@link LanceTableScan#implement}, so the generated class stays the same for every literal and version.
 */
public record LanceScanCall(ScanSource source, List<String> columns, Optional<String> filter, Optional<Long> limit,
    RowShape shape) {
  public LanceScanCall {
    Objects.requireNonNull(source, "source");
    columns = List.copyOf(columns);
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(shape, "shape");
  }

  /** The rows; called by generated code. */
  public Enumerable<Object> enumerable() {
    return source.rows(columns, filter, limit, shape);
  }
}
