package dev.lake.query.vector;

import java.util.Arrays;

/** The matches of one probe batch of a {@link JoinTable} as they are found. */
final class MatchList {
  private int[] probeRows;
  private int[] buildRows;
  private int count;

  MatchList(int expected) {
    probeRows = new int[Math.max(1, expected)];
    buildRows = new int[probeRows.length];
  }

  /** Probe row {@code probe} meets build row {@code row}. */
  void add(int probe, int row) {
    if (count == probeRows.length) {
      probeRows = Arrays.copyOf(probeRows, count * 2);
      buildRows = Arrays.copyOf(buildRows, count * 2);
    }
    probeRows[count] = probe;
    buildRows[count] = row;
    count++;
  }

  /** Probe row {@code probe} meets every build row of the chain from {@code row} ({@code next} links it). */
  void addChain(int probe, int row, int[] next) {
    for (; row >= 0; row = next[row]) {
      add(probe, row);
    }
  }

  JoinTable.Matches done() {
    return new JoinTable.Matches(probeRows, buildRows, count);
  }
}
