package dev.lake.it.tpch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Timings of one measured operation, in milliseconds. */
final class Samples {
  private final List<Double> millis = new ArrayList<>();
  private boolean capped;

  void add(long nanos) {
    millis.add(nanos / 1e6);
  }

  /** Marks that runs were cut short because one took longer than the per-query cap. */
  void capped() {
    capped = true;
  }

  boolean isCapped() {
    return capped;
  }

  boolean isEmpty() {
    return millis.isEmpty();
  }

  /** Every sample in milliseconds, in the order taken. */
  List<Double> values() {
    return List.copyOf(millis);
  }

  int count() {
    return millis.size();
  }

  double median() {
    if (millis.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  static double geometricMean(List<Double> values) {
    double logs = 0;
    for (double value : values) {
      logs += Math.log(value);
    }
    return Math.exp(logs / values.size());
  }
}
