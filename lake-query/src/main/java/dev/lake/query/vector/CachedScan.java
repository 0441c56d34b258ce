package dev.lake.query.vector;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A plain scan the vectorized executor can serve from its {@link ColumnCache}: it reads {@code columns} (the first
 * {@code outputs} are the scan's result, the rest only feed the filter) and keeps the rows {@code filter} accepts.
 * A vectorized join's build side that is a table scan is read this way ({@link VectorExecutor#sharedBuild}).
 *
 * @param key an equality of an integer column with a constant that is one of the filter's conjuncts: only the rows
 *     the column's {@link KeyPositions} give for it are read (the filter still decides)
 */
public record CachedScan(List<String> columns, int outputs, Optional<Op.Filter> filter, Optional<Key> key) {
  public CachedScan {
    columns = List.copyOf(columns);
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(key, "key");
    if (outputs < 1 || outputs > columns.size()) {
      throw new IllegalArgumentException("a cached scan returns 1 to " + columns.size() + " columns, not " + outputs);
    }
    if (key.isPresent() && (filter.isEmpty() || key.get().column() < 0 || key.get().column() >= columns.size())) {
      throw new IllegalArgumentException("a key equality is one of the filter's conjuncts over a scanned column");
    }
  }

  /** A scan with no key equality. */
  public CachedScan(List<String> columns, int outputs, Optional<Op.Filter> filter) {
    this(columns, outputs, filter, Optional.empty());
  }

  /** {@code columns.get(column) = value}, the column an integer one (unscaled). */
  public record Key(int column, long value) {}
}
