package dev.lake.query.vector;

import java.util.Arrays;

/**
 * Where each value of one cached integer column is ({@link CachedColumn}, kind LONG, held narrow in ints, shorts or
 * bytes): the rows equal to a value in O(log n) instead of a pass over the column — how a point query
 * ({@code WHERE key = ?}) served from the column cache finds its rows. A column whose non-null values are already
 * ascending (keys loaded in order) is searched as it is, with no extra memory; any other is searched through a copy
 * of its (value, row) pairs sorted once, eight bytes a row, weighed by the {@link ColumnCache} like the column.
 * Rows come back ascending, as a scan would meet them. Immutable once built; shared by concurrent queries.
 */
final class KeyPositions {
  private static final int[] NONE = new int[0];

  /** (held value << 32 | row), sorted; null when the column's own values are ascending. */
  private final long[] sorted;

  private KeyPositions(long[] sorted) {
    this.sorted = sorted;
  }

  /** Whether {@link #of} can index the column: integers (scale 0) held narrow (not as longs, not beyond a long). */
  static boolean indexable(CachedColumn column) {
    if (column.kind != Kind.LONG || column.scale != 0 || column.hasWide()) {
      return false;
    }
    ScanBatch.Direct direct = column.direct(0);
    return direct.longs() == null;
  }

  /** The positions of {@code column}'s values; check {@link #indexable} first. */
  static KeyPositions of(CachedColumn column) {
    if (!indexable(column)) {
      throw new IllegalArgumentException("only integer columns held narrow are indexed");
    }
    ScanBatch.Direct values = column.direct(0);
    boolean[] nulls = values.nulls();
    int rows = column.rows;
    boolean ascending = nulls == null;
    for (int r = 1; ascending && r < rows; r++) {
      ascending = held(values, r - 1) <= held(values, r);
    }
    if (ascending) {
      return new KeyPositions(null);
    }
    long[] pairs = new long[rows];
    int n = 0;
    for (int r = 0; r < rows; r++) {
      if (nulls == null || !nulls[r]) {
        pairs[n++] = ((long) held(values, r) << 32) | r;
      }
    }
    long[] sorted = n == rows ? pairs : Arrays.copyOf(pairs, n);
    Arrays.sort(sorted);
    return new KeyPositions(sorted);
  }

  /** The held value of row {@code r} (the value minus the column's base; ints, shorts and bytes all fit an int). */
  private static int held(ScanBatch.Direct values, int r) {
    return (int) values.held(r);
  }

  /** Heap bytes held beyond the column itself. */
  long bytes() {
    return sorted == null ? 32 : 8L * sorted.length + 48;
  }

  /**
   * The rows of {@code column} — the column these positions were built from, or another copy of the same fragment's
   * column (equal rows) — whose value equals {@code value}, ascending; NULLs equal nothing.
   */
  int[] rows(CachedColumn column, long value) {
    ScanBatch.Direct values = column.direct(0);
    long target;
    try {
      target = Math.subtractExact(value, values.base());
    } catch (ArithmeticException e) {
      return NONE; // far outside the column's range
    }
    if (target < Integer.MIN_VALUE || target > Integer.MAX_VALUE) {
      return NONE;
    }
    int key = (int) target;
    if (sorted == null) {
      int from = lowerBound(values, column.rows, key, 0, false);
      int to = lowerBound(values, column.rows, key, from, true);
      return from == to ? NONE : Batch.range(from, to - from);
    }
    long low = (long) key << 32;
    int from = search(low);
    int to = key == Integer.MAX_VALUE ? sorted.length : search((long) (key + 1) << 32);
    if (from == to) {
      return NONE;
    }
    int[] out = new int[to - from];
    for (int i = from; i < to; i++) {
      out[i - from] = (int) sorted[i];
    }
    return out;
  }

  /**
   * The first row from {@code from} on of an ascending column whose held value is >= {@code key} (> {@code key} when
   * {@code above}).
   */
  private static int lowerBound(ScanBatch.Direct values, int rows, int key, int from, boolean above) {
    int lo = from;
    int hi = rows;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int held = held(values, mid);
      if (held < key || above && held == key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The first index of {@link #sorted} holding a pair >= {@code pair}. */
  private int search(long pair) {
    int at = Arrays.binarySearch(sorted, pair);
    if (at < 0) {
      return -at - 1;
    }
    while (at > 0 && sorted[at - 1] >= pair) {
      at--;
    }
    return at;
  }
}
