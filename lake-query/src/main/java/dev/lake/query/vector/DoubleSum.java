package dev.lake.query.vector;

import java.util.Arrays;

/** SUM, $SUM0 and AVG of floating-point values. */
final class DoubleSum extends Accumulator {
  private final AggSpec spec;
  private double[] sums = new double[0];
  private long[] counts = new long[0];

  DoubleSum(AggSpec spec) {
    this.spec = spec;
  }

  @Override
  void ensure(int groups) {
    if (groups > sums.length) {
      int size = grown(sums.length, groups);
      sums = Arrays.copyOf(sums, size);
      counts = Arrays.copyOf(counts, size);
    }
  }

  @Override
  void add(int[] groupIds, Col input, int n) {
    for (int i = 0; i < n; i++) {
      if (!input.isNull(i)) {
        int g = groupIds[i];
        sums[g] += input.doubles[i];
        counts[g]++;
      }
    }
  }

  @Override
  void merge(Accumulator other, int[] mapping, int groups) {
    DoubleSum theirs = (DoubleSum) other;
    for (int g = 0; g < groups; g++) {
      sums[mapping[g]] += theirs.sums[g];
      counts[mapping[g]] += theirs.counts[g];
    }
  }

  @Override
  Col result(int groups) {
    Col out = Col.doubles(groups);
    boolean average = spec.function() == AggSpec.Function.AVG;
    for (int g = 0; g < groups; g++) {
      if (counts[g] == 0 && spec.function() != AggSpec.Function.SUM0) {
        out.setNull(g);
      } else {
        out.doubles[g] = average ? sums[g] / counts[g] : sums[g];
      }
    }
    return out;
  }
}
