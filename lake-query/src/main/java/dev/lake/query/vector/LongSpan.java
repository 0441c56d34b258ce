package dev.lake.query.vector;

/**
 * The least and greatest of the non-NULL values of a LONG column's first rows: how narrow a cached column can be held
 * ({@link CachedColumn}) and whether a join key can be addressed directly ({@link JoinTable}).
 */
record LongSpan(long min, long max) {
  /** The span of {@code values[0..rows)} where {@code nulls} (may be null) is not set; null when every row is NULL. */
  static LongSpan of(long[] values, boolean[] nulls, int rows) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < rows; i++) {
      if (nulls == null || !nulls[i]) {
        min = Math.min(min, values[i]);
        max = Math.max(max, values[i]);
      }
    }
    return min > max ? null : new LongSpan(min, max);
  }

  /** {@code max - min}, to be read unsigned: the true difference always fits 64 bits unsigned. */
  long width() {
    return max - min;
  }
}
