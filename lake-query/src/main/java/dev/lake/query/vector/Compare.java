package dev.lake.query.vector;

import java.util.Arrays;

/**
 * A comparison ({@code = <> < <= > >=}) of two columns of compatible kinds; NULL where either side is NULL. Decimals
 * of different scales are compared exactly (rescaled in longs, BigDecimal where that overflows); strings by their
 * UTF-8 bytes, unsigned (code point order).
 */
record Compare(Comparison op, Expr left, Expr right) implements Expr.Bool, Refinable {
  @Override
  public int[] trueRows(Batch batch, int[] count) {
    return Refinable.trueRows(this, this, batch, count);
  }

  /**
   * Keeps, of the batch's rows at {@code positions[0..count)}, those where this comparison is true, in place, in one
   * loop; their number. -1 (positions untouched) unless it compares a LONG expression with a LONG constant that the
   * expression's scale holds exactly.
   */
  @Override
  public int refine(Batch batch, int[] positions, int count, boolean identity) {
    if (!(right instanceof Expr.Literal) || left.kind() != Kind.LONG || right.kind() != Kind.LONG) {
      return -1;
    }
    Col constant = ((Expr.Literal) right).value();
    if (constant.isNull(0) || constant.isWide(0)) {
      return -1;
    }
    ScanBatch.Direct direct = left instanceof Expr.Input && batch instanceof ScanBatch
        ? ((ScanBatch) batch).direct(((Expr.Input) left).index()) : null;
    if (direct != null && direct.longs() == null) {
      direct = null; // held narrow: read as a column
    }
    long[] x;
    boolean[] nulls;
    int base;
    int scale;
    if (direct != null) {
      x = direct.longs();
      nulls = direct.nulls();
      base = direct.offset();
      scale = direct.scale();
    } else {
      Col a = left.eval(batch);
      if (a.wide != null) {
        return -1;
      }
      x = a.longs;
      nulls = a.nulls;
      base = 0;
      scale = a.scale;
    }
    if (constant.scale > scale) {
      return -1;
    }
    long c;
    try {
      c = DecimalMath.scaleUp(constant.longs[0], constant.scale, scale);
    } catch (ArithmeticException overflow) {
      return -1;
    }
    int kept = 0;
    switch (op) {
      case EQUAL:
        for (int j = 0; j < count; j++) {
          int p = identity ? j : positions[j];
          positions[kept] = p;
          kept += x[base + p] == c ? 1 : 0;
        }
        break;
      case NOT_EQUAL:
        for (int j = 0; j < count; j++) {
          int p = identity ? j : positions[j];
          positions[kept] = p;
          kept += x[base + p] != c ? 1 : 0;
        }
        break;
      case LESS:
        for (int j = 0; j < count; j++) {
          int p = identity ? j : positions[j];
          positions[kept] = p;
          kept += x[base + p] < c ? 1 : 0;
        }
        break;
      case LESS_OR_EQUAL:
        for (int j = 0; j < count; j++) {
          int p = identity ? j : positions[j];
          positions[kept] = p;
          kept += x[base + p] <= c ? 1 : 0;
        }
        break;
      case GREATER:
        for (int j = 0; j < count; j++) {
          int p = identity ? j : positions[j];
          positions[kept] = p;
          kept += x[base + p] > c ? 1 : 0;
        }
        break;
      default:
        for (int j = 0; j < count; j++) {
          int p = identity ? j : positions[j];
          positions[kept] = p;
          kept += x[base + p] >= c ? 1 : 0;
        }
        break;
    }
    return Refinable.dropNulls(nulls, base, positions, kept);
  }

  @Override
  public Col eval(Batch batch) {
    Col a = left.eval(batch);
    Col b = right.eval(batch);
    int n = batch.size();
    Col out = Col.bools(n);
    if (a.kind == Kind.DOUBLE || b.kind == Kind.DOUBLE) {
      for (int i = 0; i < n; i++) {
        out.longs[i] = test(Double.compare(a.asDouble(i), b.asDouble(i))) ? 1 : 0;
      }
    } else if (a.kind == Kind.STRING && (op == Comparison.EQUAL || op == Comparison.NOT_EQUAL)
        && right instanceof Expr.Literal) {
      byte[] constant = ((Expr.Literal) right).value().strings.bytes(0); // also when the batch is empty
      for (int i = 0; i < n; i++) {
        out.longs[i] = a.strings.equalTo(i, constant) == (op == Comparison.EQUAL) ? 1 : 0;
      }
    } else if (a.kind == Kind.STRING) {
      for (int i = 0; i < n; i++) {
        out.longs[i] = test(Arrays.compareUnsigned(a.strings.bytes(i), b.strings.bytes(i))) ? 1 : 0;
      }
    } else if (a.scale == b.scale && a.wide == null && b.wide == null) {
      long[] x = a.longs;
      long[] y = b.longs;
      for (int i = 0; i < n; i++) {
        out.longs[i] = test(Long.compare(x[i], y[i])) ? 1 : 0;
      }
    } else {
      int scale = Math.max(a.scale, b.scale);
      for (int i = 0; i < n; i++) {
        int c;
        try {
          c = a.isWide(i) || b.isWide(i) ? a.decimal(i).compareTo(b.decimal(i))
              : Long.compare(DecimalMath.scaleUp(a.longs[i], a.scale, scale),
                  DecimalMath.scaleUp(b.longs[i], b.scale, scale));
        } catch (ArithmeticException overflow) {
          c = a.decimal(i).compareTo(b.decimal(i));
        }
        out.longs[i] = test(c) ? 1 : 0;
      }
    }
    Arith.nulls(a, b, out, n);
    return out;
  }

  private boolean test(int c) {
    return op.test(c);
  }
}
