package dev.lake.query.vector;

import java.util.Arrays;

/**
 * A comparison ({@code = <> < <= > >=}) of two columns of compatible kinds; NULL where either side is NULL. Decimals
 * of different scales are compared exactly (rescaled in longs, BigDecimal where that overflows); strings by their
 * UTF-8 bytes, unsigned (code point order). {@code op}: {@code = !(<>) < l(<=) > g(>=)}.
 */
record Compare(char op, Expr left, Expr right) implements Expr.Bool {
  @Override
  public int[] trueRows(Batch batch, int[] count) {
    if (!(right instanceof Expr.Literal) || left.kind() != Kind.LONG || right.kind() != Kind.LONG) {
      return Expr.Bool.super.trueRows(batch, count);
    }
    Col constant = ((Expr.Literal) right).value();
    Col a = left.eval(batch);
    if (constant.isNull(0) || constant.isWide(0) || a.wide != null || constant.scale > a.scale) {
      return Expr.Bool.super.trueRows(batch, count);
    }
    long c;
    try {
      c = DecimalMath.scaleUp(constant.longs[0], constant.scale, a.scale);
    } catch (ArithmeticException overflow) {
      return Expr.Bool.super.trueRows(batch, count);
    }
    int n = batch.size();
    long[] x = a.longs;
    int[] positions = new int[n];
    int kept = 0;
    switch (op) {
      case '=':
        for (int i = 0; i < n; i++) {
          positions[kept] = i;
          kept += x[i] == c ? 1 : 0;
        }
        break;
      case '!':
        for (int i = 0; i < n; i++) {
          positions[kept] = i;
          kept += x[i] != c ? 1 : 0;
        }
        break;
      case '<':
        for (int i = 0; i < n; i++) {
          positions[kept] = i;
          kept += x[i] < c ? 1 : 0;
        }
        break;
      case 'l':
        for (int i = 0; i < n; i++) {
          positions[kept] = i;
          kept += x[i] <= c ? 1 : 0;
        }
        break;
      case '>':
        for (int i = 0; i < n; i++) {
          positions[kept] = i;
          kept += x[i] > c ? 1 : 0;
        }
        break;
      default:
        for (int i = 0; i < n; i++) {
          positions[kept] = i;
          kept += x[i] >= c ? 1 : 0;
        }
        break;
    }
    if (a.nulls != null) {
      int nonNull = 0;
      for (int k = 0; k < kept; k++) {
        if (!a.nulls[positions[k]]) {
          positions[nonNull++] = positions[k];
        }
      }
      kept = nonNull;
    }
    count[0] = kept;
    return positions;
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
    } else if (a.kind == Kind.STRING && (op == '=' || op == '!') && right instanceof Expr.Literal) {
      byte[] constant = ((Expr.Literal) right).value().strings.bytes(0); // also when the batch is empty
      for (int i = 0; i < n; i++) {
        out.longs[i] = a.strings.equalTo(i, constant) == (op == '=') ? 1 : 0;
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
    switch (op) {
      case '=':
        return c == 0;
      case '!':
        return c != 0;
      case '<':
        return c < 0;
      case 'l':
        return c <= 0;
      case '>':
        return c > 0;
      default:
        return c >= 0;
    }
  }
}
