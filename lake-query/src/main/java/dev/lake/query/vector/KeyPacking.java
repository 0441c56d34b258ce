package dev.lake.query.vector;

/**
 * Several integer join keys packed into one long, so a composite key (TPC-H's {@code ps_partkey, ps_suppkey}) is
 * probed like a single one — directly addressed or hashed as one long, without the tuple encoding. Each key's build
 * values span {@code [min, max]}; the packed key is the sum of each key's offset from its min shifted into its own
 * bits, so two rows pack equal exactly when every key is equal. A probe row with a key outside its build span can
 * match nothing and packs as NULL, as does a row with a NULL key or a value beyond a long.
 */
final class KeyPacking {
  /** The most bits the offsets may take together. */
  private static final int MAX_BITS = 62;

  private final long[] mins;
  private final long[] maxs;
  private final int[] shifts;

  private KeyPacking(long[] mins, long[] maxs, int[] shifts) {
    this.mins = mins;
    this.maxs = maxs;
    this.shifts = shifts;
  }

  /**
   * The packing of the build keys {@code keys} of {@code columns} ({@code rows} rows), or null when there are fewer
   * than two, one is not an integer column (or holds a value beyond a long), or their spans need more than
   * {@link #MAX_BITS} bits together.
   */
  static KeyPacking of(Col[] columns, int[] keys, int rows) {
    if (keys.length < 2) {
      return null;
    }
    long[] mins = new long[keys.length];
    long[] maxs = new long[keys.length];
    int[] shifts = new int[keys.length];
    int bits = 0;
    for (int k = keys.length - 1; k >= 0; k--) {
      Col col = columns[keys[k]];
      if (col.kind != Kind.LONG || col.wide != null) {
        return null;
      }
      LongSpan span = LongSpan.of(col.longs, col.nulls, rows);
      if (span == null) {
        return null; // every row NULL: nothing to pack, nothing matches
      }
      mins[k] = span.min();
      maxs[k] = span.max();
      shifts[k] = bits;
      bits += 64 - Long.numberOfLeadingZeros(span.width());
      if (bits > MAX_BITS) {
        return null;
      }
    }
    return new KeyPacking(mins, maxs, shifts);
  }

  /** The packed keys of rows {@code 0..n)} whose key columns are {@code keyColumns}, in this packing's key order. */
  Col pack(Col[] keyColumns, int n) {
    Col out = Col.longs(n, 0);
    for (int k = 0; k < keyColumns.length; k++) {
      Col col = keyColumns[k];
      if (col.kind != Kind.LONG) {
        throw new IllegalArgumentException("a packed join key must be an integer column, was " + col.kind);
      }
      long min = mins[k];
      long width = maxs[k] - min;
      int shift = shifts[k];
      long[] values = col.longs;
      for (int i = 0; i < n; i++) {
        long offset = values[i] - min;
        if (col.isNull(i) || col.isWide(i) || Long.compareUnsigned(offset, width) > 0) {
          out.setNull(i);
        } else {
          out.longs[i] += offset << shift;
        }
      }
    }
    return out;
  }
}
