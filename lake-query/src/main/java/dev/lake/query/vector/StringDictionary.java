package dev.lake.query.vector;

import java.util.Arrays;

/** Dictionary-encodes one cached fragment's string column ({@link CachedColumn.Builder}). */
final class StringDictionary {
  private StringDictionary() {}

  /**
   * The distinct values of the strings {@code data} and {@code offsets} hold for rows {@code 0..rows)} (each value's
   * code in {@code codes}), or null when they are more than {@link CachedColumn#MAX_DICTIONARY} or a quarter of the
   * rows; {@code maxLength} is the longest value in bytes.
   */
  static byte[][] of(byte[] data, int[] offsets, int rows, int maxLength, int[] codes) {
    int limit = Math.min(CachedColumn.MAX_DICTIONARY, Math.max(1, rows / 4));
    int capacity = Integer.highestOneBit(Math.max(16, limit * 2)) << 1;
    return maxLength <= StringSource.MAX_PACKED ? packed(data, offsets, rows, codes, limit, capacity)
        : hashed(data, offsets, rows, codes, limit, capacity);
  }

  /**
   * {@link #of} when every value is short enough to be one long ({@link StringSource#pack}'s layout:
   * length and bytes, so "" and "\0" differ): a value is compared and hashed as a long, not byte by byte (the
   * flags and statuses of a fact table, whose millions of rows a cold first query dictionary-encodes).
   */
  private static byte[][] packed(byte[] data, int[] offsets, int rows, int[] codes, int limit,
      int capacity) {
    long[] keys = new long[capacity];
    int[] slots = new int[capacity];
    Arrays.fill(slots, -1);
    int mask = capacity - 1;
    long[] values = new long[16];
    int distinct = 0;
    long lastKey = 0;
    int lastCode = -1;
    for (int r = 0; r < rows; r++) {
      int start = offsets[r];
      int length = offsets[r + 1] - start;
      long key = (long) length << 56;
      for (int k = 0; k < length; k++) {
        key |= (data[start + k] & 0xFFL) << (8 * k);
      }
      if (key == lastKey && lastCode >= 0) {
        codes[r] = lastCode;
        continue;
      }
      long mixed = key * 0x9E3779B97F4A7C15L;
      int slot = (int) (mixed ^ (mixed >>> 29)) & mask;
      int code;
      while (true) {
        int d = slots[slot];
        if (d < 0) {
          if (distinct == limit) {
            return null;
          }
          if (distinct == values.length) {
            values = Arrays.copyOf(values, distinct * 2);
          }
          values[distinct] = key;
          keys[slot] = key;
          slots[slot] = distinct;
          code = distinct++;
          break;
        }
        if (keys[slot] == key) {
          code = d;
          break;
        }
        slot = (slot + 1) & mask;
      }
      codes[r] = code;
      lastKey = key;
      lastCode = code;
    }
    byte[][] out = new byte[distinct][];
    for (int d = 0; d < distinct; d++) {
      out[d] = StringSource.unpack(values[d]);
    }
    return out;
  }

  /** {@link #of} over values of any length: hashed and compared byte by byte. */
  private static byte[][] hashed(byte[] data, int[] offsets, int rows, int[] codes, int limit,
      int capacity) {
    int[] slots = new int[capacity];
    Arrays.fill(slots, -1);
    int mask = slots.length - 1;
    int[] starts = new int[16];
    int[] ends = new int[16];
    int distinct = 0;
    for (int r = 0; r < rows; r++) {
      int start = offsets[r];
      int end = offsets[r + 1];
      int h = 1;
      for (int p = start; p < end; p++) {
        h = 31 * h + data[p];
      }
      int slot = (h ^ (h >>> 16)) & mask;
      int code;
      while (true) {
        int d = slots[slot];
        if (d < 0) {
          if (distinct == limit) {
            return null;
          }
          if (distinct == starts.length) {
            starts = Arrays.copyOf(starts, distinct * 2);
            ends = Arrays.copyOf(ends, distinct * 2);
          }
          starts[distinct] = start;
          ends[distinct] = end;
          slots[slot] = distinct;
          code = distinct++;
          break;
        }
        if (Arrays.equals(data, starts[d], ends[d], data, start, end)) {
          code = d;
          break;
        }
        slot = (slot + 1) & mask;
      }
      codes[r] = code;
    }
    byte[][] values = new byte[distinct][];
    for (int d = 0; d < distinct; d++) {
      values[d] = Arrays.copyOfRange(data, starts[d], ends[d]);
    }
    return values;
  }
}
