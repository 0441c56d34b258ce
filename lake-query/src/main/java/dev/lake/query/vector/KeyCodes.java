package dev.lake.query.vector;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A hashed {@link JoinTable}'s keys as tuples of longs ({@code keyCount} keys then a flag word): integers, dates and
 * decimals as their unscaled longs, doubles as their bits (0.0 and -0.0 alike), strings and decimals beyond a long
 * as their id in a dictionary built with the table (flagged, so an id never equals a plain value).
 */
final class KeyCodes {
  private KeyCodes() {}

  /**
   * Writes key k of rows 0..n-1 of {@code col} into their tuples ({@code keyCount} keys then a flag word each): longs
   * as themselves, strings and out-of-long decimals as their dictionary id (flagged). A NULL key, or — unless
   * {@code add} (building) — a value the dictionary lacks, marks the row in {@code skip}: it matches nothing.
   */
  static void encode(int k, int keyCount, Col col, long[] codes, boolean[] skip, int n,
      Map<Object, Long> dictionary, boolean add) {
    int width = keyCount + 1;
    for (int i = 0; i < n; i++) {
      if (skip[i]) {
        continue;
      }
      if (col.isNull(i)) {
        skip[i] = true;
        continue;
      }
      int at = i * width;
      if (col.kind == Kind.STRING || col.isWide(i)) {
        Object key = objectKey(col, i);
        Long id = dictionary.get(key);
        if (id == null) {
          if (!add) {
            skip[i] = true;
            continue;
          }
          id = (long) dictionary.size();
          dictionary.put(key, id);
        }
        codes[at + k] = id;
        codes[at + keyCount] |= 1L << k;
      } else {
        codes[at + k] = plainCode(col, i);
      }
    }
  }

  private static long plainCode(Col col, int i) {
    if (col.kind == Kind.DOUBLE) {
      double d = col.doubles[i];
      return Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
    }
    return col.longs[i];
  }

  private static Object objectKey(Col col, int i) {
    return col.kind == Kind.STRING ? ByteBuffer.wrap(col.strings.bytes(i)) : col.wide[i].stripTrailingZeros();
  }

  static long hash(long[] codes, int offset, int width) {
    long h = 0x9E3779B97F4A7C15L;
    for (int w = 0; w < width; w++) {
      h = (h ^ codes[offset + w]) * 0xC2B2AE3D27D4EB4FL;
      h ^= h >>> 29;
    }
    return h;
  }
}
