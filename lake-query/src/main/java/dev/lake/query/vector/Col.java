package dev.lake.query.vector;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The values of one expression over the selected rows of a batch, dense (position i is the batch's i-th selected
 * row). A working buffer, not a value: operators fill it and read it within one batch. LONG columns may hold a
 * per-row {@link BigDecimal} ({@link #wide}) where a decimal result did not fit a long; BOOL columns use
 * {@link #longs} as 0/1; STRING columns read bytes through {@link #strings}.
 */
public final class Col {
  final Kind kind;
  final int size;
  /** Decimal scale of LONG columns holding decimals (0 otherwise). */
  final int scale;
  long[] longs;
  double[] doubles;
  /** Null flags, or null when no row is null. */
  boolean[] nulls;
  /** Per-row values that did not fit a long (null entries where they did), or null when all fit. */
  BigDecimal[] wide;
  StringSource strings;

  Col(Kind kind, int size, int scale) {
    this.kind = kind;
    this.size = size;
    this.scale = scale;
  }

  public Kind kind() {
    return kind;
  }

  public int scale() {
    return scale;
  }

  static Col longs(int size, int scale) {
    Col col = new Col(Kind.LONG, size, scale);
    col.longs = new long[size];
    return col;
  }

  static Col doubles(int size) {
    Col col = new Col(Kind.DOUBLE, size, 0);
    col.doubles = new double[size];
    return col;
  }

  static Col bools(int size) {
    Col col = new Col(Kind.BOOL, size, 0);
    col.longs = new long[size];
    return col;
  }

  boolean isNull(int i) {
    return nulls != null && nulls[i];
  }

  void setNull(int i) {
    if (nulls == null) {
      nulls = new boolean[size];
    }
    nulls[i] = true;
  }

  boolean isWide(int i) {
    return wide != null && wide[i] != null;
  }

  void setWide(int i, BigDecimal value) {
    if (wide == null) {
      wide = new BigDecimal[size];
    }
    wide[i] = value;
  }

  /** The exact decimal value of row i of a LONG column. */
  BigDecimal decimal(int i) {
    return isWide(i) ? wide[i] : BigDecimal.valueOf(longs[i], scale);
  }

  /** Row i as a double (LONG columns scaled). */
  double asDouble(int i) {
    if (kind == Kind.DOUBLE) {
      return doubles[i];
    }
    return isWide(i) || scale != 0 ? decimal(i).doubleValue() : longs[i];
  }

  String string(int i) {
    return new String(strings.bytes(i), StandardCharsets.UTF_8);
  }

  /** The rows at {@code positions[0..count)} of this column, in that order. */
  Col select(int[] positions, int count) {
    Col out = new Col(kind, count, scale);
    if (longs != null) {
      out.longs = new long[count];
      for (int i = 0; i < count; i++) {
        out.longs[i] = longs[positions[i]];
      }
    }
    if (doubles != null) {
      out.doubles = new double[count];
      for (int i = 0; i < count; i++) {
        out.doubles[i] = doubles[positions[i]];
      }
    }
    if (nulls != null) {
      out.nulls = new boolean[count];
      for (int i = 0; i < count; i++) {
        out.nulls[i] = nulls[positions[i]];
      }
    }
    if (wide != null) {
      out.wide = new BigDecimal[count];
      for (int i = 0; i < count; i++) {
        out.wide[i] = wide[positions[i]];
      }
    }
    if (strings != null) {
      out.strings = strings.select(positions, count);
    }
    return out;
  }

  /** A column of {@code count} copies of row 0 of this one (a literal). */
  Col repeat(int count) {
    Col out = new Col(kind, count, scale);
    if (longs != null) {
      out.longs = new long[count];
      Arrays.fill(out.longs, longs[0]);
    }
    if (doubles != null) {
      out.doubles = new double[count];
      Arrays.fill(out.doubles, doubles[0]);
    }
    if (nulls != null && nulls[0]) {
      out.nulls = new boolean[count];
      Arrays.fill(out.nulls, true);
    }
    if (wide != null && wide[0] != null) {
      out.wide = new BigDecimal[count];
      Arrays.fill(out.wide, wide[0]);
    }
    if (strings != null) {
      out.strings = strings.select(new int[count], count);
    }
    return out;
  }
}
