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
   * What identifies the rows one fragment of this version holds, for caches that outlive a version: the table's
   * location, the fragment's data files (their paths are unique and a data file is never rewritten), the schema's
   * field ids of those files, and its deletion file (id, read version and type), or that it has none. Two versions
   * whose fragment has the same key hold the same rows in it; an append keeps the keys of the fragments it did not
   * touch, a delete, overwrite or compaction gives new keys to what it changed (an overwrite restarts fragment ids, so
   * the id alone is not enough). No I/O beyond the opened manifest.
   */
  String fragmentKey(int fragment);

  /**
   * Like {@link #scan}, over the given fragments only (to scan fragments, or row ranges of them, in parallel).
   *
   * @param fragments fragment ids from {@link #fragmentIds()}
   * @param offset rows to skip first (of the filtered rows, with a filter)
   */
  ArrowReader scanFragments(List<String> columns, Optional<String> filter, List<Integer> fragments, long offset,
      Optional<Long> limit, int batchSize);

  /**
   * Rows {@code [offset, offset + count)} of this version (numbered in scan order, deleted rows not counted) for
   * {@code columns}, in this order: one bounded call into Lance (its take by row offsets), whose cost grows with the
   * rows and the columns asked for, not with the table's width — a wide table is read this way by column groups
   * (docs/operations.md, "Query deadlines"). Offsets past the last row are refused.
   *
   * <p>The default reads the same rows with a fragment scan (for engines without a take).
   */
  default ArrowReader readRows(List<String> columns, long offset, int count) {
    if (columns.isEmpty() || offset < 0 || count <= 0) {
      throw new IllegalArgumentException("readRows needs columns, offset >= 0 and count > 0; were " + columns.size()
          + " columns, offset " + offset + ", count " + count);
    }
    return scanFragments(columns, Optional.empty(), fragmentIds(), offset, Optional.of((long) count), count);
  }

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
