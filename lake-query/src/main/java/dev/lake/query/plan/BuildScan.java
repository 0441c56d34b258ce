package dev.lake.query.plan;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A vectorized join's build side that is a plain scan of stored columns (projection and Lance filter only): the join
 * reads its Arrow batches straight into the hash table instead of through the row runtime's objects.
 *
 * @param reference the table reference whose scan source the execution binds
 * @param columns the stored columns, in the build side's column order
 * @param filter the Lance filter pushed into the scan
 */
public record BuildScan(String reference, List<String> columns, Optional<String> filter) {
  public BuildScan {
    Objects.requireNonNull(reference, "reference");
    columns = List.copyOf(columns);
    Objects.requireNonNull(filter, "filter");
  }

  /** The scan of {@code build}, when it is a plain scan of at least one stored column. */
  static Optional<BuildScan> of(org.apache.calcite.rel.RelNode build) {
    if (!(build instanceof LanceTableScan)) {
      return Optional.empty();
    }
    LanceTableScan scan = (LanceTableScan) build;
    if (scan.limit().isPresent() || !scan.runtimeFilters().isEmpty() || scan.columnNames().isEmpty()
        || scan.filter().isPresent() && scan.condition().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new BuildScan(scan.lanceTable().reference().key(), scan.columnNames(), scan.filter()));
  }
}
