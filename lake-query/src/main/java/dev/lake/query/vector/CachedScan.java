package dev.lake.query.vector;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A plain scan the vectorized executor can serve from its {@link ColumnCache}: it reads {@code columns} (the first
 * {@code outputs} are the scan's result, the rest only feed the filter) and keeps the rows {@code filter} accepts.
 * A vectorized join's build side that is a table scan is read this way ({@link VectorExecutor#buildFromCache}).
 */
public record CachedScan(List<String> columns, int outputs, Optional<Op.Filter> filter) {
  public CachedScan {
    columns = List.copyOf(columns);
    Objects.requireNonNull(filter, "filter");
    if (outputs < 1 || outputs > columns.size()) {
      throw new IllegalArgumentException("a cached scan returns 1 to " + columns.size() + " columns, not " + outputs);
    }
  }
}
