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
    if (right instanceof Expr.Input && left instanceof Expr.Input && batch instanceof ScanBatch) {
      return refineColumns((ScanBatch) batch, positions, count, identity);
    }
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

  /**
   * {@link #refine} of two LONG columns of one scale held narrow in the column cache (TPC-H's
   * {@code l_receiptdate > l_commitdate}: two short arrays), compared in place: {@code (x + bx) op (y + by)} is
   * {@code x - y} against {@code by - bx}, exact while the bases differ by less than 2^62. -1 for any other columns.
   */
  private int refineColumns(ScanBatch batch, int[] positions, int count, boolean identity) {
    Expr.Input a = (Expr.Input) left;
    Expr.Input b = (Expr.Input) right;
    if (a.kind() != Kind.LONG || b.kind() != Kind.LONG || a.scale() != b.scale()) {
      return -1;
    }
    ScanBatch.Direct x = batch.direct(a.index());
    ScanBatch.Direct y = batch.direct(b.index());
    if (x == null || y == null) {
      return -1;
    }
    long threshold;
    try {
      threshold = Math.subtractExact(y.base(), x.base());
    } catch (ArithmeticException overflow) {
      return -1;
    }
    if (threshold >= 1L << 62 || threshold <= -(1L << 62)) {
      return -1;
    }
    // x - y > t for > (t = threshold), >= (t - 1); < and <= swap the sides; = and <> test x - y == t
    boolean swap = op == Comparison.LESS || op == Comparison.LESS_OR_EQUAL;
    boolean orEqual = op == Comparison.GREATER_OR_EQUAL || op == Comparison.LESS_OR_EQUAL;
    boolean equality = op == Comparison.EQUAL || op == Comparison.NOT_EQUAL;
    int kept;
    if (x.shorts() != null && y.shorts() != null) {
      short[] p = swap ? y.shorts() : x.shorts();
      short[] q = swap ? x.shorts() : y.shorts();
      kept = equality ? equalShorts(p, q, x.offset(), y.offset(), threshold, op == Comparison.NOT_EQUAL, positions,
          count, identity) : greaterShorts(p, q, swap ? y.offset() : x.offset(), swap ? x.offset() : y.offset(),
          (swap ? -threshold : threshold) - (orEqual ? 1 : 0), positions, count, identity);
    } else if (x.ints() != null && y.ints() != null) {
      int[] p = swap ? y.ints() : x.ints();
      int[] q = swap ? x.ints() : y.ints();
      kept = equality ? equalInts(p, q, x.offset(), y.offset(), threshold, op == Comparison.NOT_EQUAL, positions,
          count, identity) : greaterInts(p, q, swap ? y.offset() : x.offset(), swap ? x.offset() : y.offset(),
          (swap ? -threshold : threshold) - (orEqual ? 1 : 0), positions, count, identity);
    } else {
      return -1;
    }
    kept = Refinable.dropNulls(x.nulls(), x.offset(), positions, kept);
    return Refinable.dropNulls(y.nulls(), y.offset(), positions, kept);
  }

  private static int greaterShorts(short[] p, short[] q, int po, int qo, long t, int[] positions, int count,
      boolean identity) {
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int r = identity ? j : positions[j];
      positions[kept] = r;
      kept += (long) p[po + r] - q[qo + r] > t ? 1 : 0;
    }
    return kept;
  }

  private static int equalShorts(short[] p, short[] q, int po, int qo, long t, boolean negate, int[] positions,
      int count, boolean identity) {
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int r = identity ? j : positions[j];
      positions[kept] = r;
      kept += ((long) p[po + r] - q[qo + r] == t) != negate ? 1 : 0;
    }
    return kept;
  }

  private static int greaterInts(int[] p, int[] q, int po, int qo, long t, int[] positions, int count,
      boolean identity) {
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int r = identity ? j : positions[j];
      positions[kept] = r;
      kept += (long) p[po + r] - q[qo + r] > t ? 1 : 0;
    }
    return kept;
  }

  private static int equalInts(int[] p, int[] q, int po, int qo, long t, boolean negate, int[] positions, int count,
      boolean identity) {
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int r = identity ? j : positions[j];
      positions[kept] = r;
      kept += ((long) p[po + r] - q[qo + r] == t) != negate ? 1 : 0;
    }
    return kept;
  }

  @Override
  public Col eval(Batch batch) {
    Col a = left.eval(batch);
    int n = batch.size();
    Col out = Col.bools(n);
    if (a.kind == Kind.STRING && (op == Comparison.EQUAL || op == Comparison.NOT_EQUAL)
        && right instanceof Expr.Literal) {
      // the constant as it is, not repeated to the batch's size
      Col literal = ((Expr.Literal) right).value();
      if (literal.isNull(0)) {
        for (int i = 0; i < n; i++) {
          out.setNull(i);
        }
        return out;
      }
      byte[] constant = literal.strings.bytes(0);
      for (int i = 0; i < n; i++) {
        out.longs[i] = a.strings.equalTo(i, constant) == (op == Comparison.EQUAL) ? 1 : 0;
      }
      Arith.nulls(a, a, out, n);
      return out;
    }
    Col b = right.eval(batch);
    if (a.kind == Kind.DOUBLE || b.kind == Kind.DOUBLE) {
      for (int i = 0; i < n; i++) {
        out.longs[i] = test(Double.compare(a.asDouble(i), b.asDouble(i))) ? 1 : 0;
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
