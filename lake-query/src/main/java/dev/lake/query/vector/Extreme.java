package dev.lake.query.vector;

import java.math.BigDecimal;
import java.util.Arrays;

/** MIN or MAX of integers, dates, decimals (exact, also beyond a long) and doubles. */
final class Extreme extends Accumulator {
  private final boolean max;
  private final Kind kind;
  private final int scale;
  private long[] longs = new long[0];
  private double[] doubles = new double[0];
  private BigDecimal[] wide = new BigDecimal[0];
  private boolean[] seen = new boolean[0];

  Extreme(boolean max, Kind kind, int scale) {
    this.max = max;
    this.kind = kind;
    this.scale = scale;
  }

  @Override
  void ensure(int groups) {
    if (groups > seen.length) {
      int size = grown(seen.length, groups);
      longs = Arrays.copyOf(longs, size);
      doubles = Arrays.copyOf(doubles, size);
      wide = Arrays.copyOf(wide, size);
      seen = Arrays.copyOf(seen, size);
    }
  }

  @Override
  void add(int[] groupIds, Col input, int n) {
    for (int i = 0; i < n; i++) {
      if (!input.isNull(i)) {
        offer(groupIds[i], input.kind == Kind.DOUBLE ? input.doubles[i] : 0,
            input.kind == Kind.DOUBLE ? 0 : input.longs[i], input.isWide(i) ? input.wide[i] : null);
      }
    }
  }

  private void offer(int g, double d, long l, BigDecimal big) {
    if (!seen[g]) {
      seen[g] = true;
      doubles[g] = d;
      longs[g] = l;
      wide[g] = big;
      return;
    }
    int c;
    if (kind == Kind.DOUBLE) {
      c = Double.compare(d, doubles[g]);
    } else if (big != null || wide[g] != null) {
      BigDecimal current = wide[g] != null ? wide[g] : BigDecimal.valueOf(longs[g], scale);
      c = (big != null ? big : BigDecimal.valueOf(l, scale)).compareTo(current);
    } else {
      c = Long.compare(l, longs[g]);
    }
    if (max ? c > 0 : c < 0) {
      doubles[g] = d;
      longs[g] = l;
      wide[g] = big;
    }
  }

  @Override
  void merge(Accumulator other, int[] mapping, int groups) {
    Extreme theirs = (Extreme) other;
    for (int g = 0; g < groups; g++) {
      if (theirs.seen[g]) {
        offer(mapping[g], theirs.doubles[g], theirs.longs[g], theirs.wide[g]);
      }
    }
  }

  @Override
  Col result(int groups) {
    Col out = kind == Kind.DOUBLE ? Col.doubles(groups) : Col.longs(groups, scale);
    for (int g = 0; g < groups; g++) {
      if (!seen[g]) {
        out.setNull(g);
      } else if (kind == Kind.DOUBLE) {
        out.doubles[g] = doubles[g];
      } else if (wide[g] != null) {
        out.setWide(g, wide[g]);
      } else {
        out.longs[g] = longs[g];
      }
    }
    return out;
  }
}
