package dev.lake.query.vector;

import dev.lake.query.model.QueryRejectedException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;

/** The per-group state of one aggregate function, in arrays indexed by group id. */
abstract class Accumulator {
  protected int capacity;

  /** Makes room for group ids below {@code groups}. */
  abstract void ensure(int groups);

  /** Adds row i of {@code input} (null for COUNT(*)) to group {@code groupIds[i]}, for i below {@code n}. */
  abstract void add(int[] groupIds, Col input, int n);

  /**
   * Adds the rows of {@code input} run by run ({@link GroupRuns}); by default row by row. Accumulators whose update
   * is a dependent load-add-store per row override it.
   */
  void add(GroupRuns runs, int[] groupIds, Col input, int n) {
    add(groupIds, input, n);
  }

  /** Adds the states of {@code other}'s groups into this one's groups {@code mapping[g]}. */
  abstract void merge(Accumulator other, int[] mapping, int groups);

  /** The result of groups 0..groups-1. */
  abstract Col result(int groups);

  static int grown(int current, int needed) {
    int size = Math.max(16, current);
    while (size < needed) {
      size *= 2;
    }
    return size;
  }

  /** COUNT(*) or COUNT(x) (non-null x). */
  static final class Count extends Accumulator {
    private final boolean star;
    private long[] counts = new long[0];

    Count(boolean star) {
      this.star = star;
    }

    @Override
    void ensure(int groups) {
      if (groups > counts.length) {
        counts = Arrays.copyOf(counts, grown(counts.length, groups));
      }
    }

    @Override
    void add(int[] groupIds, Col input, int n) {
      if (star || input.nulls == null) {
        for (int i = 0; i < n; i++) {
          counts[groupIds[i]]++;
        }
      } else {
        for (int i = 0; i < n; i++) {
          if (!input.nulls[i]) {
            counts[groupIds[i]]++;
          }
        }
      }
    }

    @Override
    void add(GroupRuns runs, int[] groupIds, Col input, int n) {
      if (!star && input.nulls != null) {
        add(groupIds, input, n);
        return;
      }
      for (int r = 0; r < runs.count; r++) {
        counts[runs.groups[r]] += runs.starts[r + 1] - runs.starts[r];
      }
    }

    @Override
    void merge(Accumulator other, int[] mapping, int groups) {
      long[] theirs = ((Count) other).counts;
      for (int g = 0; g < groups; g++) {
        counts[mapping[g]] += theirs[g];
      }
    }

    @Override
    Col result(int groups) {
      Col out = Col.longs(groups, 0);
      System.arraycopy(counts, 0, out.longs, 0, groups);
      return out;
    }
  }

  /**
   * SUM, $SUM0 and AVG of integers and decimals on unscaled longs with {@link Math#addExact}; a group whose sum
   * overflows continues in BigDecimal (an integer SUM that overflows BIGINT is an error).
   */
  static final class LongSum extends Accumulator {
    private final AggSpec spec;
    private final int scale;
    private long[] sums = new long[0];
    private long[] counts = new long[0];
    private BigDecimal[] wide;

    LongSum(AggSpec spec, int scale) {
      this.spec = spec;
      this.scale = scale;
    }

    @Override
    void ensure(int groups) {
      if (groups > sums.length) {
        int size = grown(sums.length, groups);
        sums = Arrays.copyOf(sums, size);
        counts = Arrays.copyOf(counts, size);
        if (wide != null) {
          wide = Arrays.copyOf(wide, size);
        }
      }
    }

    @Override
    void add(int[] groupIds, Col input, int n) {
      long[] values = input.longs;
      if (input.nulls == null && input.wide == null) {
        for (int i = 0; i < n; i++) {
          int g = groupIds[i];
          counts[g]++;
          long sum = sums[g];
          long value = values[i];
          long result = sum + value;
          if (((sum ^ result) & (value ^ result)) < 0) {
            overflow(g, BigDecimal.valueOf(value, scale));
          } else {
            sums[g] = result;
          }
        }
        return;
      }
      for (int i = 0; i < n; i++) {
        if (input.isNull(i)) {
          continue;
        }
        int g = groupIds[i];
        counts[g]++;
        if (input.isWide(i)) {
          overflow(g, input.wide[i]);
        } else {
          try {
            sums[g] = Math.addExact(sums[g], values[i]);
          } catch (ArithmeticException e) {
            overflow(g, BigDecimal.valueOf(values[i], scale));
          }
        }
      }
    }

    @Override
    void add(GroupRuns runs, int[] groupIds, Col input, int n) {
      if (input.nulls != null || input.wide != null) {
        add(groupIds, input, n);
        return;
      }
      long[] values = input.longs;
      for (int r = 0; r < runs.count; r++) {
        int g = runs.groups[r];
        int start = runs.starts[r];
        int end = runs.starts[r + 1];
        long sum = sums[g];
        for (int p = start; p < end; p++) {
          long value = values[runs.row(p)];
          long result = sum + value;
          if (((sum ^ result) & (value ^ result)) < 0) {
            sums[g] = sum;
            overflow(g, BigDecimal.valueOf(value, scale));
            sum = sums[g];
          } else {
            sum = result;
          }
        }
        sums[g] = sum;
        counts[g] += end - start;
      }
    }

    /** Moves group g's sum to BigDecimal (once) and adds {@code value} there. */
    private void overflow(int g, BigDecimal value) {
      if (spec.integer() && spec.function() != AggSpec.Function.AVG) {
        throw new QueryRejectedException("SUM overflows BIGINT; CAST the argument to DECIMAL(38, 0)");
      }
      if (wide == null) {
        wide = new BigDecimal[sums.length];
      }
      BigDecimal base = BigDecimal.valueOf(sums[g], scale);
      wide[g] = (wide[g] == null ? BigDecimal.ZERO : wide[g]).add(base).add(value);
      sums[g] = 0;
    }

    private BigDecimal exact(int g) {
      BigDecimal inLong = BigDecimal.valueOf(sums[g], scale);
      return wide != null && wide[g] != null ? wide[g].add(inLong) : inLong;
    }

    @Override
    void merge(Accumulator other, int[] mapping, int groups) {
      LongSum theirs = (LongSum) other;
      for (int g = 0; g < groups; g++) {
        int to = mapping[g];
        counts[to] += theirs.counts[g];
        if (theirs.wide != null && theirs.wide[g] != null) {
          overflow(to, theirs.wide[g]);
        }
        try {
          sums[to] = Math.addExact(sums[to], theirs.sums[g]);
        } catch (ArithmeticException e) {
          overflow(to, BigDecimal.valueOf(theirs.sums[g], scale));
        }
      }
    }

    @Override
    Col result(int groups) {
      if (spec.function() == AggSpec.Function.AVG) {
        return average(groups);
      }
      Col out = Col.longs(groups, scale);
      for (int g = 0; g < groups; g++) {
        if (counts[g] == 0 && spec.function() == AggSpec.Function.SUM) {
          out.setNull(g);
        } else if (wide != null && wide[g] != null) {
          DecimalMath.store(out, g, exact(g));
        } else {
          out.longs[g] = sums[g];
        }
      }
      return out;
    }

    private Col average(int groups) {
      Col out = spec.kind() == Kind.DOUBLE ? Col.doubles(groups) : Col.longs(groups, spec.scale());
      for (int g = 0; g < groups; g++) {
        if (counts[g] == 0) {
          out.setNull(g);
        } else if (spec.kind() == Kind.DOUBLE) {
          out.doubles[g] = exact(g).doubleValue() / counts[g];
        } else {
          RoundingMode rounding = RoundingMode.HALF_UP;
          DecimalMath.store(out, g, exact(g).divide(new BigDecimal(BigInteger.valueOf(counts[g])), spec.scale(),
              rounding));
        }
      }
      return out;
    }
  }
}
