package dev.lake.query.vector;

import dev.lake.query.model.QueryRejectedException;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code + - * /} over two columns. Doubles in double arithmetic; integers with overflow checks (an integer overflow
 * is an error); decimals on unscaled longs with {@link Math#addExact}/{@link Math#multiplyExact} at the result scale,
 * falling back to BigDecimal for a row whose result does not fit; decimal division in BigDecimal, half up.
 */
record Arith(Arithmetic op, Expr left, Expr right, Kind kind, int scale, boolean decimal) implements Expr {
  @Override
  public Col eval(Batch batch) {
    Col a = left.eval(batch);
    Col b = right.eval(batch);
    int n = batch.size();
    Col out;
    if (kind == Kind.DOUBLE) {
      out = Col.doubles(n);
      for (int i = 0; i < n; i++) {
        out.doubles[i] = apply(a.asDouble(i), b.asDouble(i));
      }
    } else {
      out = Col.longs(n, scale);
      if (op != Arithmetic.DIVIDE && a.wide == null && b.wide == null && fast(a, b, out.longs, n)) {
        nulls(a, b, out, n);
        return out;
      }
      for (int i = 0; i < n; i++) {
        if (a.isNull(i) || b.isNull(i)) {
          continue;
        }
        if (op == Arithmetic.DIVIDE || a.isWide(i) || b.isWide(i)) {
          wide(a, b, out, i);
          continue;
        }
        try {
          out.longs[i] = exact(a.longs[i], a.scale, b.longs[i], b.scale);
        } catch (ArithmeticException overflow) {
          if (!decimal) {
            throw new QueryRejectedException("integer overflow in " + op + ": the result does not fit BIGINT; CAST"
                + " an operand to DECIMAL");
          }
          wide(a, b, out, i);
        }
      }
    }
    nulls(a, b, out, n);
    return out;
  }

  /**
   * The whole column in exact long arithmetic, one tight loop per operator; false (nothing usable written) when any
   * row overflows or the scale would shrink, and the per-row path with its BigDecimal fallback runs instead.
   */
  private boolean fast(Col a, Col b, long[] out, int n) {
    long[] x = a.longs;
    long[] y = b.longs;
    try {
      if (op == Arithmetic.TIMES) {
        if (a.scale + b.scale > scale) {
          return false;
        }
        for (int i = 0; i < n; i++) {
          out[i] = Math.multiplyExact(x[i], y[i]);
        }
        rescale(out, a.scale + b.scale, n);
        return true;
      }
      x = scaled(x, a.scale, n);
      y = scaled(y, b.scale, n);
      if (op == Arithmetic.PLUS) {
        for (int i = 0; i < n; i++) {
          out[i] = Math.addExact(x[i], y[i]);
        }
      } else {
        for (int i = 0; i < n; i++) {
          out[i] = Math.subtractExact(x[i], y[i]);
        }
      }
      return true;
    } catch (ArithmeticException overflow) {
      return false;
    }
  }

  private long[] scaled(long[] values, int from, int n) {
    if (from == scale) {
      return values;
    }
    long[] out = java.util.Arrays.copyOf(values, n);
    rescale(out, from, n);
    return out;
  }

  private void rescale(long[] values, int from, int n) {
    if (from == scale) {
      return;
    }
    long factor = DecimalMath.pow10(scale - from);
    for (int i = 0; i < n; i++) {
      values[i] = Math.multiplyExact(values[i], factor);
    }
  }

  private double apply(double x, double y) {
    switch (op) {
      case PLUS:
        return x + y;
      case MINUS:
        return x - y;
      case TIMES:
        return x * y;
      default:
        return x / y;
    }
  }

  private long exact(long x, int xs, long y, int ys) {
    switch (op) {
      case PLUS:
        return Math.addExact(DecimalMath.scaleUp(x, xs, scale), DecimalMath.scaleUp(y, ys, scale));
      case MINUS:
        return Math.subtractExact(DecimalMath.scaleUp(x, xs, scale), DecimalMath.scaleUp(y, ys, scale));
      default:
        if (xs + ys > scale) {
          throw new ArithmeticException("scale shrinks");
        }
        return DecimalMath.scaleUp(Math.multiplyExact(x, y), xs + ys, scale);
    }
  }

  private void wide(Col a, Col b, Col out, int i) {
    BigDecimal x = a.decimal(i);
    BigDecimal y = b.decimal(i);
    BigDecimal result;
    switch (op) {
      case PLUS:
        result = x.add(y);
        break;
      case MINUS:
        result = x.subtract(y);
        break;
      case TIMES:
        result = x.multiply(y);
        break;
      default:
        if (y.signum() == 0) {
          throw new QueryRejectedException("division by zero");
        }
        result = x.divide(y, decimal ? scale : 0, decimal ? RoundingMode.HALF_UP : RoundingMode.DOWN);
        break;
    }
    if (!decimal && result.setScale(0, RoundingMode.DOWN).unscaledValue().bitLength() >= 64) {
      throw new QueryRejectedException("integer overflow in " + op + ": the result does not fit BIGINT");
    }
    DecimalMath.store(out, i, decimal ? result : result.setScale(0, RoundingMode.DOWN));
  }

  static void nulls(Col a, Col b, Col out, int n) {
    if (a.nulls == null && b.nulls == null) {
      return;
    }
    for (int i = 0; i < n; i++) {
      if (a.isNull(i) || b.isNull(i)) {
        out.setNull(i);
      }
    }
  }
}
