package dev.lake.query.vector;

import java.util.Map;

/** The directly addressed {@link JoinTable} of a single integer key whose values span a small enough range. */
final class DirectJoinTable {
  /**
   * A single integer key is addressed directly when its range of values is at most this many times the build rows
   * (4 bytes a value of the range: about what the hashed table's slots, slot keys, key words and chains take per
   * row) or at most {@link #MIN_DIRECT_RANGE} values.
   */
  static final long MAX_DIRECT_SPREAD = 16;
  static final long MIN_DIRECT_RANGE = 1 << 16;

  private DirectJoinTable() {}

  /**
   * A directly addressed table over a single integer key (see {@link JoinTable.Direct}), or null when the key is not
   * one, has no non-NULL value, or spans too wide a range. Rows are linked in build order: a chain is built from the
   * last row back.
   */
  static JoinTable build(Col key, Col[] columns, int rows, KeyPacking packing, MemoryBudget budget) {
    if (key.kind != Kind.LONG || key.wide != null) {
      return null;
    }
    long[] values = key.longs;
    boolean[] nulls = key.nulls;
    LongSpan keySpan = LongSpan.of(values, nulls, rows);
    if (keySpan == null) {
      return null;
    }
    long min = keySpan.min();
    long span = keySpan.width();
    long limit = Math.min(JoinTable.MAX_DIRECT_RANGE, Math.max(MIN_DIRECT_RANGE, MAX_DIRECT_SPREAD * rows));
    if (Long.compareUnsigned(span, limit - 1) > 0) {
      return null;
    }
    int range = (int) span + 1;
    int[] head = new int[range];
    PresenceBits present = new PresenceBits(min, range);
    budget.chargeTo(budget.charged() + 4L * range + present.bytes());
    int[] next = new int[Math.max(1, rows)];
    boolean unique = true;
    for (int i = rows - 1; i >= 0; i--) {
      if (nulls != null && nulls[i]) {
        continue;
      }
      int offset = (int) (values[i] - min);
      int previous = head[offset];
      next[i] = previous - 1;
      unique &= previous == 0;
      head[offset] = i + 1;
      present.add(values[i]);
    }
    return new JoinTable(columns, rows, 2, null, null, null, next, false, Map.of(), budget,
        new JoinTable.Direct(head, present, unique), packing);
  }
}
