package dev.lake.query.vector;

import java.nio.charset.StandardCharsets;

/**
 * {@code SUBSTRING(s FROM start FOR length)} with constant bounds (TPC-H Q22's country code): the characters from
 * position {@code start} (1-based) up to before {@code start + length}, cut to the string — Calcite's
 * {@code SqlFunctions.substring}, which counts a string's UTF-16 units, so each result equals the row runtime's. An
 * ASCII string is cut as bytes; any other is decoded and cut as Java's string. A NULL string gives NULL.
 *
 * @param length the number of characters, or -1 for {@code SUBSTRING(s FROM start)} (to the end)
 */
record Substring(Expr input, int start, int length) implements Expr {
  Substring {
    if (input.kind() != Kind.STRING) {
      throw new IllegalArgumentException("SUBSTRING of a " + input.kind());
    }
    if (length < -1) {
      throw new IllegalArgumentException("SUBSTRING with a negative length " + length);
    }
  }

  @Override
  public Kind kind() {
    return Kind.STRING;
  }

  @Override
  public int scale() {
    return 0;
  }

  @Override
  public Col eval(Batch batch) {
    Col strings = input.eval(batch);
    int n = batch.size();
    byte[][] out = new byte[n][];
    Col result = new Col(Kind.STRING, n, 0);
    for (int i = 0; i < n; i++) {
      if (strings.isNull(i)) {
        out[i] = new byte[0];
        result.setNull(i);
      } else {
        out[i] = cut(strings.strings.bytes(i));
      }
    }
    result.strings = StringSource.of(out);
    return result;
  }

  /** The substring of {@code value} (UTF-8). */
  byte[] cut(byte[] value) {
    boolean ascii = true;
    for (int i = 0; i < value.length && ascii; i++) {
      ascii = value[i] >= 0;
    }
    if (ascii) {
      int[] bounds = bounds(value.length);
      return bounds == null ? new byte[0] : java.util.Arrays.copyOfRange(value, bounds[0], bounds[1]);
    }
    String text = new String(value, StandardCharsets.UTF_8);
    int[] bounds = bounds(text.length());
    return bounds == null ? new byte[0] : text.substring(bounds[0], bounds[1]).getBytes(StandardCharsets.UTF_8);
  }

  /** The 0-based [from, to) of the characters kept of a string of {@code size} characters; null: none. */
  private int[] bounds(int size) {
    long end = length < 0 ? (long) size + 1 : (long) start + length;
    if (start > size || end < 1) {
      return null;
    }
    int from = Math.max(start, 1);
    int to = (int) Math.min(end, size + 1L);
    return from >= to ? null : new int[] {from - 1, to - 1};
  }
}
