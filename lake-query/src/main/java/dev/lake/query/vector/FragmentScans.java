package dev.lake.query.vector;

import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/** How the vectorized executor reads one pinned table: per fragment, tracked by the query's resources. */
public interface FragmentScans {
  /** Identifies the table version for caches, e.g. location@version. */
  String versionKey();

  /**
   * Identifies the rows of one fragment for caches that outlive a version (the {@link ColumnCache}): equal keys hold
   * equal rows, whatever the version (data files and deletion state; {@code TableSnapshot.fragmentKey}).
   */
  default String fragmentKey(int fragment) {
    return versionKey() + "#" + fragment;
  }

  List<Integer> fragmentIds();

  /** The rows of one fragment. */
  long fragmentRows(int fragment);

  /**
   * Lance's batches of {@code columns} of the given fragments, from row {@code offset} on; the caller releases the
   * reader.
   */
  ArrowReader open(List<String> columns, Optional<String> filter, List<Integer> fragments, long offset,
      Optional<Long> limit);

  /** {@link #open} in batches of at most {@code batchRows} rows (a scan under a small memory limit). */
  default ArrowReader open(List<String> columns, Optional<String> filter, List<Integer> fragments, long offset,
      Optional<Long> limit, int batchRows) {
    return open(columns, filter, fragments, offset, limit);
  }

  /** Closes a reader {@link #open} returned. */
  void release(ArrowReader reader);

  /** The query's allocator (its memory limit bounds the executor's state). */
  BufferAllocator allocator();

  /** Where the executor's operators spill when their state outgrows the memory limit; null: they may not. */
  default dev.lake.query.spill.SpillSpace spill() {
    return null;
  }
}
