package dev.lake.query.plan.lance;

import dev.lake.query.plan.types.ColumnType;
import dev.lake.query.plan.types.RowShape;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;

/**
 * Reads one pinned table for Calcite's row runtime. Implemented by the executor; a table planned only for
 * {@code prepare} has none.
 */
public interface ScanSource {
  /** The name a pushed-down statement gives the one table it reads. */
  String SQL_TABLE = "lake_table";

  /**
   * A lazy enumerable over the table's rows: nothing is read until its enumerator moves, batches are read one at a
   * time, and closing the enumerator closes the scan.
   *
   * @param columns stored column names in output order; empty means no columns (rows carry no values)
   * @param filter the Lance filter every returned row satisfies, asked for when the scan opens (runtime filters are
   *     known only then)
   * @param limit the most rows to return
   * @param shape how each row is represented (Calcite's physical row format)
   */
  Enumerable<Object> rows(List<String> columns, Supplier<Optional<String>> filter, Optional<Long> limit,
      RowShape shape);

  /**
   * Lance's own batches of the given stored columns (pass-through); the caller closes the reader.
   *
   * @param columns stored column names in output order, at least one
   */
  ArrowReader batches(List<String> columns, Optional<String> filter, Optional<Long> limit);

  /**
   * A lazy enumerable over the rows of a statement run by Lance's SQL engine on this table (named
   * {@link #SQL_TABLE} in it), each value converted to the row runtime's representation of {@code columns}. If Lance
   * rejects the statement (when it is planned, or while its first batch is computed), the rows of {@code fallback}
   * are returned instead and the fallback is counted.
   */
  Enumerable<Object> sqlRows(String sql, List<ColumnType> columns, RowShape shape,
      Supplier<Enumerable<Object>> fallback);

  /**
   * A lazy enumerable over the rows of a subtree compiled for lake's vectorized executor, run on this table when the
   * enumerator first moves.
   */
  Enumerable<Object> vectorRows(dev.lake.query.vector.VectorPlan plan, RowShape shape);

  /**
   * Runs a subtree compiled for lake's vectorized executor on this table: its result, column by column (a statement
   * the executor runs whole writes it into its Arrow batches as it is).
   */
  dev.lake.query.vector.VectorResult vectorResult(dev.lake.query.vector.VectorPlan plan);

  /**
   * Runs a {@link dev.lake.query.vector.VectorPlan#rowsOnly() rows-only} plan on this table, handing its rows to
   * {@code chunks} on the calling thread a chunk at a time, in no particular order (by default: all at once).
   */
  default void vectorCollect(dev.lake.query.vector.VectorPlan plan,
      java.util.function.Consumer<dev.lake.query.vector.VectorResult> chunks) {
    chunks.accept(vectorResult(plan));
  }

  /**
   * The executing statement's allocator: operators charge their Java-heap state to it, so the query's memory limit
   * bounds them (a vectorized join's build sides).
   */
  org.apache.arrow.memory.BufferAllocator allocator();

  /** Lance's own batches of a statement run by its SQL engine on this table; the caller closes the reader. */
  ArrowReader sql(String sql);

  /**
   * The rows of a statement that is one pass-through scan ({@code read}: its columns and its condition, bound for this
   * execution), at most {@code limit} of them, from the vectorized executor's column cache in chunks of about
   * {@code chunkRows} rows; empty when the scan is to read Lance ({@code VectorExecutor#scanRows} says when).
   */
  default Optional<java.util.Iterator<dev.lake.query.vector.VectorResult>> cachedScan(LanceTableScan.CacheRead read,
      Optional<Long> limit, int chunkRows) {
    return Optional.empty();
  }

  /**
   * The rows of a plain scan from the vectorized executor's column cache (its condition evaluated over cached
   * columns), as {@link #rows} would return them; empty when this source has no cache or the columns do not fit it.
   * {@code atOpen} gives the scan to run when it opens ({@code scan} with the runtime filters known then).
   */
  default Optional<Enumerable<Object>> cachedRows(dev.lake.query.vector.CachedScan scan,
      Supplier<dev.lake.query.vector.CachedScan> atOpen, List<dev.lake.query.vector.VectorPlan.Output> types,
      RowShape shape) {
    return Optional.empty();
  }

  /**
   * The join table of the rows of {@code scan} (named by {@code rows}) from the vectorized executor's column cache,
   * shared with every execution that builds the same over the same fragments; null when this source has no cache or
   * the columns do not fit it.
   */
  default dev.lake.query.vector.JoinTable sharedBuild(dev.lake.query.vector.CachedScan scan, String rows,
      java.util.function.Supplier<dev.lake.query.vector.JoinBuilder> builders) {
    return null;
  }

  /** Where the execution's operators spill past its memory limit; null when they may not. */
  default dev.lake.query.spill.SpillSpace spill() {
    return null;
  }
}
