package dev.lake.query.vector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.IntFunction;

/**
 * The rows of a {@link CachedScan} over a table's cached columns, produced as they are consumed: fragment by fragment
 * in the table's order, 4,096 rows at a time — or, with a key equality, only the rows the key column's
 * {@link KeyPositions} give — each chunk filtered; at most {@code limit} rows in all, handed on as
 * {@link VectorResult}s of the scan's types of at least {@code targetRows} rows (fewer at the end; fewer for a scan of
 * many columns, so a chunk holds about a million values).
 */
final class CachedRows implements Iterator<VectorResult> {
  private static final int CHUNK_ROWS = 4_096;
  /** The values (rows times columns read) a chunk gathers at most beyond its last 4,096-row piece. */
  private static final int MAX_CHUNK_VALUES = 1 << 20;

  private final CachedScan scan;
  private final List<VectorPlan.Output> types;
  private final List<Integer> fragments;
  private final Map<Integer, CachedColumn[]> columns;
  /** The candidate rows (ascending) of the fragment at an index of {@link #fragments}; null: no key equality. */
  private final IntFunction<int[]> candidates;
  private final int targetRows;
  private long remaining;
  private int fragment;
  private int start;
  /** The current fragment's candidate rows, or null for every row; read once per fragment. */
  private int[] rows;
  private boolean rowsRead;
  private VectorResult chunk;

  CachedRows(CachedScan scan, List<VectorPlan.Output> types, List<Integer> fragments,
      Map<Integer, CachedColumn[]> columns, IntFunction<int[]> candidates, long limit, int targetRows) {
    this.scan = scan;
    this.types = types;
    this.fragments = fragments;
    this.columns = columns;
    this.candidates = candidates;
    this.remaining = limit;
    // a wide scan's chunks stay small: about MAX_CHUNK_VALUES values a chunk, whatever the batch size asked for
    this.targetRows = Math.max(1, Math.min(targetRows, MAX_CHUNK_VALUES / Math.max(1, scan.columns().size())));
  }

  /**
   * The candidate rows of each fragment (by its index in {@code fragments}) for {@code scan}'s key equality, from the
   * key column's {@link KeyPositions} (null for a fragment whose column is not indexable: every row); null when the
   * scan has no key equality.
   */
  static IntFunction<int[]> keyRows(CachedScan scan, List<Integer> fragments, Map<Integer, CachedColumn[]> columns,
      ColumnCache cache, FragmentScans scans) {
    if (scan.key().isEmpty()) {
      return null;
    }
    CachedScan.Key key = scan.key().get();
    String name = scan.columns().get(key.column());
    return at -> {
      int fragment = fragments.get(at);
      CachedColumn column = columns.get(fragment)[key.column()];
      KeyPositions positions = cache.positions(scans.fragmentKey(fragment), name, column);
      return positions == null ? null : positions.rows(column, key.value());
    };
  }

  @Override
  public boolean hasNext() {
    return chunk != null || nextChunk();
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
    List<Batch> parts = new ArrayList<>();
    int total = 0;
    while (total < targetRows && total < remaining) {
      Batch batch = nextFiltered();
      if (batch == null) {
        break;
      }
      int size = batch.size();
      if (size == 0) {
        continue;
      }
      if (total + size > remaining) {
        size = (int) (remaining - total);
        batch = batch.select(Batch.range(0, size), size);
      }
      parts.add(batch);
      total += size;
    }
    if (total == 0) {
      return false;
    }
    remaining -= total;
    chunk = VectorResult.rows(Batches.concat(parts, scan.outputs()), types.subList(0, scan.outputs()));
    return true;
  }

  /** The next chunk of the scan, filtered (maybe empty), or null at the end. */
  private Batch nextFiltered() {
    while (fragment < fragments.size()) {
      CachedColumn[] cached = columns.get(fragments.get(fragment));
      if (!rowsRead) {
        rows = candidates == null ? null : candidates.apply(fragment);
        rowsRead = true;
      }
      int size = rows == null ? cached[0].rows : rows.length;
      if (start >= size) {
        fragment++;
        start = 0;
        rowsRead = false;
        continue;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new IllegalStateException("the query was cancelled while it scanned cached columns");
      }
      int end = Math.min(size, start + CHUNK_ROWS);
      Batch batch = rows == null ? ScanBatch.range(cached, start, end)
          : ScanBatch.range(cached, 0, cached[0].rows).select(Arrays.copyOfRange(rows, start, end), end - start);
      start = end;
      return scan.filter().isPresent() ? scan.filter().get().apply(batch) : batch;
    }
    return null;
  }
}
