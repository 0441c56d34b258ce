package dev.lake.query.vector;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code low <= column <= high} on a LONG column's unscaled values (inclusive bounds at the column's scale): what a
 * lower and an upper bound comparison of the same column with constants become (Q6's date range and discount
 * BETWEEN), tested in one pass with one unsigned comparison per row. NULL rows are not kept.
 */
record Range(Expr.Input input, long low, long high) implements Expr.Bool, Refinable {
  /**
   * The conjuncts with each pair of a lower and an upper bound of the same column by constants merged into a
   * {@link Range} (at the first one's place), and each remaining bound or equality of a column with a constant as a
   * one-sided (or one-value) range; the others unchanged.
   */
  static List<Expr> merge(List<Expr> conjuncts) {
    List<Expr> out = new ArrayList<>(conjuncts);
    for (int i = 0; i < out.size(); i++) {
      Long[] first = bound(out.get(i));
      if (first == null) {
        continue;
      }
      for (int j = i + 1; j < out.size(); j++) {
        Long[] second = bound(out.get(j));
        Expr.Input column = (Expr.Input) ((Compare) out.get(i)).left();
        if (second == null || !((Compare) out.get(j)).left().equals(column)
            || (first[0] == null) == (second[0] == null)) {
          continue;
        }
        long low = first[0] != null ? first[0] : second[0];
        long high = first[1] != null ? first[1] : second[1];
        out.set(i, new Range(column, low, high));
        out.remove(j);
        break;
      }
    }
    for (int i = 0; i < out.size(); i++) {
      // a lone bound, or an equality, is a range too: one loop that also reads columns held as ints in place
      Long[] single = bound(out.get(i));
      if (single == null && out.get(i) instanceof Compare && ((Compare) out.get(i)).op() == Comparison.EQUAL) {
        Compare equal = (Compare) out.get(i);
        Long[] lower = bound(new Compare(Comparison.GREATER_OR_EQUAL, equal.left(), equal.right()));
        single = lower == null ? null : new Long[] {lower[0], lower[0]};
      }
      if (single != null) {
        out.set(i, new Range((Expr.Input) ((Compare) out.get(i)).left(),
            single[0] != null ? single[0] : Long.MIN_VALUE, single[1] != null ? single[1] : Long.MAX_VALUE));
      }
    }
    return out;
  }

  /**
   * {lower, null} or {null, upper}: the inclusive bound on unscaled values a comparison of a LONG column with a
   * LONG constant sets; null when it is not one (or the constant does not scale exactly).
   */
  private static Long[] bound(Expr expr) {
    if (!(expr instanceof Compare)) {
      return null;
    }
    Compare compare = (Compare) expr;
    if (!(compare.left() instanceof Expr.Input) || !(compare.right() instanceof Expr.Literal)
        || compare.left().kind() != Kind.LONG || compare.right().kind() != Kind.LONG) {
      return null;
    }
    Col constant = ((Expr.Literal) compare.right()).value();
    int scale = compare.left().scale();
    if (constant.isNull(0) || constant.isWide(0) || constant.scale > scale) {
      return null;
    }
    long c;
    try {
      c = DecimalMath.scaleUp(constant.longs[0], constant.scale, scale);
    } catch (ArithmeticException overflow) {
      return null;
    }
    switch (compare.op()) {
      case GREATER_OR_EQUAL:
        return new Long[] {c, null};
      case GREATER:
        return c == Long.MAX_VALUE ? null : new Long[] {c + 1, null};
      case LESS_OR_EQUAL:
        return new Long[] {null, c};
      case LESS:
        return c == Long.MIN_VALUE ? null : new Long[] {null, c - 1};
      default:
        return null;
    }
  }

  @Override
  public int refine(Batch batch, int[] positions, int count, boolean identity) {
    ScanBatch.Direct direct = batch instanceof ScanBatch ? ((ScanBatch) batch).direct(input.index()) : null;
    long[] x;
    boolean[] nulls;
    int base;
    if (direct != null && direct.longs() == null) {
      return refineNarrow(direct, positions, count, identity);
    }
    if (direct != null) {
      x = direct.longs();
      nulls = direct.nulls();
      base = direct.offset();
    } else {
      Col a = input.eval(batch);
      if (a.wide != null) {
        return -1;
      }
      x = a.longs;
      nulls = a.nulls;
      base = 0;
    }
    if (low > high) {
      return 0;
    }
    long width = high - low;
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int p = identity ? j : positions[j];
      positions[kept] = p;
      kept += Long.compareUnsigned(x[base + p] - low, width) <= 0 ? 1 : 0;
    }
    return Refinable.dropNulls(nulls, base, positions, kept);
  }

  /**
   * {@link #refine} over a cached column held narrow: {@code held + base - low}, wrapping, is the value's distance
   * from {@code low}, so one unsigned comparison with {@code held - (low - base)} tests the range.
   */
  private int refineNarrow(ScanBatch.Direct direct, int[] positions, int count, boolean identity) {
    if (low > high) {
      return 0;
    }
    int offset = direct.offset();
    long shift = low - direct.base();
    long width = high - low;
    int kept = 0;
    if (direct.ints() != null) {
      int[] x = direct.ints();
      for (int j = 0; j < count; j++) {
        int p = identity ? j : positions[j];
        positions[kept] = p;
        kept += Long.compareUnsigned(x[offset + p] - shift, width) <= 0 ? 1 : 0;
      }
    } else if (direct.shorts() != null) {
      short[] x = direct.shorts();
      for (int j = 0; j < count; j++) {
        int p = identity ? j : positions[j];
        positions[kept] = p;
        kept += Long.compareUnsigned(x[offset + p] - shift, width) <= 0 ? 1 : 0;
      }
    } else {
      byte[] x = direct.tiny();
      for (int j = 0; j < count; j++) {
        int p = identity ? j : positions[j];
        positions[kept] = p;
        kept += Long.compareUnsigned(x[offset + p] - shift, width) <= 0 ? 1 : 0;
      }
    }
    return Refinable.dropNulls(direct.nulls(), offset, positions, kept);
  }

  @Override
  public int[] trueRows(Batch batch, int[] count) {
    return Refinable.trueRows(this, this, batch, count);
  }

  @Override
  public Col eval(Batch batch) {
    Col a = input.eval(batch);
    int n = batch.size();
    Col out = Col.bools(n);
    BigDecimal lowValue = BigDecimal.valueOf(low, a.scale);
    BigDecimal highValue = BigDecimal.valueOf(high, a.scale);
    for (int i = 0; i < n; i++) {
      if (a.isNull(i)) {
        out.setNull(i);
      } else if (a.isWide(i)) {
        out.longs[i] = a.wide[i].compareTo(lowValue) >= 0 && a.wide[i].compareTo(highValue) <= 0 ? 1 : 0;
      } else {
        out.longs[i] = a.longs[i] >= low && a.longs[i] <= high ? 1 : 0;
      }
    }
    return out;
  }
}
