package dev.lake.query.vector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code s LIKE pattern} for patterns whose only wildcard is {@code %} (TPC-H's 'PROMO%', '%green%', 'forest%'):
 * the literal pieces between the wildcards must appear in order, the first at the start unless the pattern begins
 * with {@code %}, the last at the end unless it ends with one. Compared as UTF-8 bytes, which is exact for such
 * patterns. Other patterns ({@code _}, escapes) are not compiled ({@link #of}).
 */
record Like(Expr input, List<byte[]> pieces, boolean anchoredStart, boolean anchoredEnd) implements Expr.Bool {
  /** The LIKE of {@code pattern}, or null when it uses {@code _}. */
  static Like of(Expr input, String pattern) {
    if (pattern.indexOf('_') >= 0) {
      return null;
    }
    List<byte[]> pieces = new ArrayList<>();
    for (String piece : pattern.split("%", -1)) {
      pieces.add(piece.getBytes(StandardCharsets.UTF_8));
    }
    return new Like(input, pieces, !pattern.startsWith("%"), !pattern.endsWith("%"));
  }

  @Override
  public Col eval(Batch batch) {
    Col strings = input.eval(batch);
    int n = batch.size();
    Col out = Col.bools(n);
    strings.strings.like(this, n, out.longs);
    for (int i = 0; i < n; i++) {
      if (strings.isNull(i)) {
        out.setNull(i);
      }
    }
    return out;
  }

  /** Whether the bytes {@code value[start, end)} match. */
  boolean matches(byte[] value, int start, int end) {
    int last = pieces.size() - 1;
    if (last == 0) {
      byte[] whole = pieces.get(0);
      return java.util.Arrays.equals(value, start, end, whole, 0, whole.length);
    }
    int from = start;
    if (anchoredEnd) {
      byte[] tail = pieces.get(last);
      end -= tail.length;
      if (end < start || !java.util.Arrays.equals(value, end, end + tail.length, tail, 0, tail.length)) {
        return false;
      }
    }
    for (int p = 0; p < (anchoredEnd ? last : last + 1); p++) {
      byte[] piece = pieces.get(p);
      if (piece.length == 0) {
        continue;
      }
      int at = p == 0 && anchoredStart ? (startsWith(value, piece, start, end) ? start : -1)
          : indexOf(value, piece, from, end);
      if (at < 0) {
        return false;
      }
      from = at + piece.length;
    }
    return true;
  }

  private static boolean startsWith(byte[] value, byte[] piece, int start, int end) {
    return piece.length <= end - start
        && java.util.Arrays.equals(value, start, start + piece.length, piece, 0, piece.length);
  }

  /** The first position in {@code [from, end)} where {@code piece} (not empty) starts, or -1. */
  private static int indexOf(byte[] value, byte[] piece, int from, int end) {
    byte first = piece[0];
    int length = piece.length;
    for (int at = from, limit = end - length; at <= limit; at++) {
      if (value[at] != first) {
        continue;
      }
      int k = 1;
      while (k < length && value[at + k] == piece[k]) {
        k++;
      }
      if (k == length) {
        return at;
      }
    }
    return -1;
  }
}
