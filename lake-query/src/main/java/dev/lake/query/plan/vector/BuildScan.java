package dev.lake.query.plan.vector;

import dev.lake.query.plan.lance.LanceTableScan;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import dev.lake.query.vector.CachedScan;
import dev.lake.query.vector.Unsupported;

/**
 * A vectorized join's build side that is a plain scan of stored columns (projection and Lance filter only): the join
 * reads its Arrow batches straight into the hash table instead of through the row runtime's objects.
 *
 * @param reference the table reference whose scan source the execution binds
 * @param columns the stored columns, in the build side's column order
 * @param filter the Lance filter pushed into the scan
 * @param cached the same scan for the vectorized executor's column cache (the filter compiled to run over cached
 *     columns), when it can evaluate the filter
 * @param rows which rows of a table version the scan reads, as text: its columns and its condition's digest (with
 *     its literals); two scans of one version with equal text read equal rows (a shared join table's key)
 */
public record BuildScan(String reference, List<String> columns, Optional<String> filter,
    Optional<CachedScan> cached, String rows) {
  public BuildScan {
    Objects.requireNonNull(reference, "reference");
    columns = List.copyOf(columns);
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(cached, "cached");
    Objects.requireNonNull(rows, "rows");
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
    Optional<CachedScan> cached = Optional.empty();
    try {
      VectorPlanner.ScanColumns read = VectorPlanner.scanColumns(scan);
      if (scan.condition().isEmpty() || read.filter().isPresent()) {
        cached = Optional.of(new CachedScan(read.columns(), scan.columnNames().size(), read.filter(), read.key()));
      }
    } catch (Unsupported e) {
      // a column the executor cannot hold: the join reads Lance's batches
    }
    return Optional.of(new BuildScan(scan.lanceTable().reference().key(), scan.columnNames(), scan.filter(),
        cached, "columns=" + scan.columnNames() + " condition=" + scan.condition().map(Object::toString).orElse("")));
  }
}
