package dev.lake.query.exec;

import dev.lake.engine.TableSnapshot;
import dev.lake.query.plan.ColumnType;
import dev.lake.query.plan.RowShape;
import dev.lake.query.plan.ScanSource;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;

/** Scans one opened snapshot for a statement; every reader it opens is tracked by the statement's resources. */
final class LanceScanSource implements ScanSource {
  private final TableSnapshot snapshot;
  private final QueryResources resources;
  private final int batchSize;
  private final PushdownCounters counters;

  LanceScanSource(TableSnapshot snapshot, QueryResources resources, int batchSize, PushdownCounters counters) {
    this.counters = counters;
    this.snapshot = snapshot;
    this.resources = resources;
    this.batchSize = batchSize;
  }

  @Override
  public Enumerable<Object> rows(List<String> columns, Supplier<Optional<String>> filter, Optional<Long> limit,
      RowShape shape) {
    List<String> scanned = columns.isEmpty() ? List.of(snapshot.schema().getFields().get(0).getName()) : columns;
    return new ReplayableRows(
        () -> new LanceRowEnumerator(() -> batches(scanned, filter.get(), limit), resources, columns.size(), shape));
  }

  @Override
  public ArrowReader batches(List<String> columns, Optional<String> filter, Optional<Long> limit) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a pass-through scan needs at least one column");
    }
    return resources.track(snapshot.scan(columns, filter, limit, batchSize));
  }

  @Override
  public Enumerable<Object> sqlRows(String sql, List<ColumnType> columns, RowShape shape,
      Supplier<Enumerable<Object>> fallback) {
    return new ReplayableRows(
        () -> new LanceSqlRowEnumerator(sql, () -> sql(sql), resources, columns, shape, fallback, counters));
  }

  @Override
  public ArrowReader sql(String sql) {
    return resources.track(snapshot.sql(sql, SQL_TABLE));
  }
}
