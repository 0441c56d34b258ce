package dev.lake.query.vector;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Exact arithmetic on unscaled decimals held in longs: null (or an exception) where a long cannot hold the result. */
final class DecimalMath {
  private static final long[] POWERS = new long[19];

  static {
    long power = 1;
    for (int i = 0; i < POWERS.length; i++) {
      POWERS[i] = power;
      power *= 10;
    }
  }

  private DecimalMath() {}

  /** 10^n for 0 <= n <= 18; throws ArithmeticException beyond. */
  static long pow10(int n) {
    if (n < 0 || n >= POWERS.length) {
      throw new ArithmeticException("10^" + n + " does not fit a long");
    }
    return POWERS[n];
  }

  /** {@code unscaled} at scale {@code from} rescaled up to scale {@code to >= from}; throws on overflow. */
  static long scaleUp(long unscaled, int from, int to) {
    return to == from ? unscaled : Math.multiplyExact(unscaled, pow10(to - from));
  }

  /** Row i of {@code col} as an exact decimal at {@code scale}, rounding half up when the scale shrinks. */
  static BigDecimal at(Col col, int i, int scale) {
    return col.decimal(i).setScale(scale, RoundingMode.HALF_UP);
  }

  /** Stores {@code value} (at the column's scale) into row i: as a long when it fits, else as a wide value. */
  static void store(Col col, int i, BigDecimal value) {
    BigDecimal scaled = value.setScale(col.scale, RoundingMode.HALF_UP);
    if (scaled.unscaledValue().bitLength() < 64) {
      col.longs[i] = scaled.unscaledValue().longValue();
    } else {
      col.setWide(i, scaled);
    }
  }
}
