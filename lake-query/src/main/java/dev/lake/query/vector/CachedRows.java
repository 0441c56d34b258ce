package dev.lake.query.vector;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The rows of a {@link CachedScan} over a table's cached columns, produced a 4,096-row chunk at a time as they are
 * consumed: fragment by fragment, each chunk filtered, its selected rows a {@link VectorResult} of the scan's types.
 */
final class CachedRows implements Iterator<VectorResult> {
  private static final int CHUNK_ROWS = 4_096;

  private final CachedScan scan;
  private final List<VectorPlan.Output> types;
  private final List<Integer> fragments;
  private final Map<Integer, CachedColumn[]> columns;
  private int fragment;
  private int start;
  private VectorResult chunk;

  CachedRows(CachedScan scan, List<VectorPlan.Output> types, List<Integer> fragments,
      Map<Integer, CachedColumn[]> columns) {
    this.scan = scan;
    this.types = types;
    this.fragments = fragments;
    this.columns = columns;
  }

  @Override
  public boolean hasNext() {
    while (chunk == null || chunk.rowCount() == 0) {
      if (!nextChunk()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public VectorResult next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    VectorResult out = chunk;
    chunk = null;
    return out;
  }

  private boolean nextChunk() {
    while (fragment < fragments.size()) {
      CachedColumn[] cached = columns.get(fragments.get(fragment));
      int rows = cached[0].rows;
      if (start >= rows) {
        fragment++;
        start = 0;
        continue;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new IllegalStateException("the query was cancelled while it scanned cached columns");
      }
      Batch batch = ScanBatch.range(cached, start, Math.min(rows, start + CHUNK_ROWS));
      start += CHUNK_ROWS;
      if (scan.filter().isPresent()) {
        batch = scan.filter().get().apply(batch);
      }
      chunk = VectorResult.rows(batch, types.subList(0, scan.outputs()));
      return true;
    }
    return false;
  }
}
