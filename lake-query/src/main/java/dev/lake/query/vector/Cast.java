package dev.lake.query.vector;

import java.math.RoundingMode;

/**
 * A numeric CAST: decimal rescaling (exact in longs where it fits, half up when the scale shrinks), to and from
 * doubles, and to integers (decimals rounded half up, like lake's Calcite runtime and DuckDB). The compiler gives it no
 * cast of a double to an integer or DECIMAL type (Calcite's runtime checks those: NaN, infinities, range).
 * Same kind and scale pass through.
 */
record Cast(Expr operand, Kind kind, int scale) implements Expr {
  @Override
  public Col eval(Batch batch) {
    Col c = operand.eval(batch);
    if (c.kind == kind && c.scale == scale) {
      return c;
    }
    int n = batch.size();
    Col out;
    if (kind == Kind.DOUBLE) {
      out = Col.doubles(n);
      for (int i = 0; i < n; i++) {
        out.doubles[i] = c.isNull(i) ? 0 : c.asDouble(i);
      }
    } else if (c.kind == Kind.DOUBLE) {
      throw new IllegalStateException("a CAST of a double to " + kind + " is Calcite's runtime's (ExprCompiler)");
    } else {
      out = Col.longs(n, scale);
      for (int i = 0; i < n; i++) {
        if (c.isNull(i)) {
          continue;
        }
        if (!c.isWide(i) && scale >= c.scale) {
          try {
            out.longs[i] = DecimalMath.scaleUp(c.longs[i], c.scale, scale);
            continue;
          } catch (ArithmeticException overflow) {
            // below
          }
        }
        DecimalMath.store(out, i, c.decimal(i).setScale(scale, RoundingMode.HALF_UP));
      }
    }
    out.nulls = c.nulls;
    return out;
  }
}
