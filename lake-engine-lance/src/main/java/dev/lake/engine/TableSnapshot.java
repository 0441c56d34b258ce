package dev.lake.engine;

import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One pinned version of one table. Readers it returns must be closed before the snapshot; closing the snapshot
 * closes any reader still open (a cancelled query). Readers throw {@link EngineException}s (unchecked) from
 * {@code loadNextBatch()}: a dropped table or a cleaned-up version surfaces there as
 * {@link DatasetNotFoundException}, a bad filter possibly only there as {@link InvalidExpressionException}.
 */
public interface TableSnapshot extends AutoCloseable {
  String location();

  long version();

  Schema schema();

  /** Row count from metadata (no scan). */
  long countRows();

  /**
   * Streams the table's stored Arrow batches.
   *
   * @param columns the columns to read, in this order; empty means all
   * @param filter a Lance SQL filter expression (DataFusion syntax), if any
   * @param limit the maximum number of rows, if any
   * @param batchSize rows per batch
   */
  ArrowReader scan(List<String> columns, Optional<String> filter, Optional<Long> limit, int batchSize);

  /** The ids of the version's fragments, in order (no I/O beyond the opened manifest). */
  List<Integer> fragmentIds();

  /** The rows of one fragment (from its metadata). */
  long fragmentRows(int fragment);

  /**
   * Like {@link #scan}, over the given fragments only (to scan fragments, or row ranges of them, in parallel).
   *
   * @param fragments fragment ids from {@link #fragmentIds()}
   * @param offset rows to skip first (of the filtered rows, with a filter)
   */
  ArrowReader scanFragments(List<String> columns, Optional<String> filter, List<Integer> fragments, long offset,
      Optional<Long> limit, int batchSize);

  /** Runs {@code sql} against this version only, the table being named {@code tableName} in the query. */
  ArrowReader sql(String sql, String tableName);

  @Override
  void close();

  /**
   * The scalar indexes this version holds (read from its manifest), in name order. Lance's snapshots override
   * this; a wrapper that does not know any answers none.
   */
  default List<TableIndex> indexes() {
    return List.of();
  }
}
