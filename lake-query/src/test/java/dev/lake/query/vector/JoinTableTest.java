package dev.lake.query.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A join table over one integer key finds exactly the build rows a nested loop finds — each probe row's matches in
 * build order, NULLs and values beyond a long matching nothing — whether the key is addressed directly (a range at
 * most sixteen times the rows: dense, filtered, repeated, negative, at the ends of the long range) or hashed — behind
 * exact presence bits when the range spans at most 2^26 values, else behind a bit filter (sparse).
 */
class JoinTableTest {
  private final Random random = new Random(7);

  @Test
  void integerKeysMatchAsANestedLoopDoesAddressedDirectlyOrHashed() {
    // what, low, high, build rows, NULL keys, addressed directly, hashed behind exact presence bits
    Object[][] cases = {
        {"dense primary key", 0L, 50_000L, 50_000, false, true, false},
        {"a filtered key, an eighth of its range", 1L, 400_000L, 50_000, false, true, false},
        {"a sixteenth of its range", 1L, 800_000L, 50_000, false, true, false},
        {"a seventeenth", 1L, 850_000L, 50_000, false, false, true},
        {"few keys of a wide range (a filtered dimension)", 1L, 200_000L, 200, true, false, true},
        {"repeated keys", -300L, 300L, 20_000, false, true, false},
        {"at the low end of the long range", Long.MIN_VALUE, Long.MIN_VALUE + 5_000, 3_000, false, true, false},
        {"at the high end of the long range", Long.MAX_VALUE - 5_000, Long.MAX_VALUE, 3_000, false, true, false},
        {"hashed at the high end of the long range", Long.MAX_VALUE - 3_000_000, Long.MAX_VALUE, 3_000, true, false,
            true},
        {"with NULL keys", 10L, 20_000L, 15_000, true, true, false},
        {"a range of 2^26 values", -5L, (1L << 26) - 6, 5_000, false, false, true},
        {"a range of 2^26 + 1 values", -5L, (1L << 26) - 5, 5_000, false, false, false},
        {"sparse", 0L, 1L << 40, 20_000, false, false, false},
        {"the whole long range", Long.MIN_VALUE, Long.MAX_VALUE, 5_000, true, false, false}};
    for (Object[] c : cases) {
      String what = (String) c[0];
      long low = (long) c[1];
      long high = (long) c[2];
      int rows = (int) c[3];
      boolean withNulls = (boolean) c[4];
      Col build = keys(rows, low, high, withNulls, false);
      Col payload = Col.longs(rows, 0);
      for (int i = 0; i < rows; i++) {
        payload.longs[i] = i;
      }
      try (MemoryBudget budget = MemoryBudget.none()) {
        JoinTable table = JoinTable.build(new Col[] {build, payload}, rows, new int[] {0}, budget);
        assertThat(table.addressedDirectly()).as(what + ": addressed directly").isEqualTo(c[5]);
        assertThat(table.filtersByPresence()).as(what + ": presence bits").isEqualTo(c[6]);
        for (int round = 0; round < 3; round++) {
          int n = 2_000 + random.nextInt(2_000);
          Col probe = keys(n, low == Long.MIN_VALUE ? low : low - 10, high == Long.MAX_VALUE ? high : high + 10,
              withNulls, round == 2);
          // some probe values are build values, so that a sparse key matches too
          for (int i = 0; i < n; i += 3) {
            if (!probe.isNull(i) && !probe.isWide(i)) {
              int from = random.nextInt(rows);
              probe.longs[i] = build.longs[from];
              if (build.isNull(from)) {
                probe.setNull(i);
              }
            }
          }
          JoinTable.Matches matches = table.probe(batch(probe), new int[] {0});
          List<String> actual = new ArrayList<>();
          for (int m = 0; m < matches.count(); m++) {
            actual.add(matches.probeRows()[m] + "-" + matches.buildRows()[m]);
          }
          assertThat(actual).as(what + ", round " + round).isEqualTo(nestedLoop(probe, n, build, rows));
        }
      }
    }
  }

  /**
   * Composite integer keys packed into one long (their spans fitting 62 bits: direct or hashed) or, when they do not
   * fit, encoded as tuples: the same matches as a nested loop, a NULL in any key and a probe value outside a key's
   * build span matching nothing.
   */
  @Test
  void compositeIntegerKeysMatchAsANestedLoopDoesPackedOrNot() {
    Object[][] cases = {
        {"partsupp-like: 2 M parts x 100 K suppliers", new long[][] {{1, 2_000_000}, {1, 100_000}}, 30_000, true},
        {"two narrow keys, directly addressed", new long[][] {{0, 200}, {-50, 50}}, 20_000, true},
        {"three keys, one repeated value", new long[][] {{5, 5}, {0, 1_000}, {Long.MAX_VALUE - 90, Long.MAX_VALUE}},
            10_000, true},
        {"too wide to pack", new long[][] {{0, 1L << 40}, {0, 1L << 30}}, 10_000, false}};
    for (Object[] c : cases) {
      String what = (String) c[0];
      long[][] spans = (long[][]) c[1];
      int rows = (int) c[2];
      int width = spans.length;
      Col[] build = new Col[width + 1];
      for (int k = 0; k < width; k++) {
        build[k] = keys(rows, spans[k][0], spans[k][1], k == 1, false);
      }
      // small per-key domains repeat combinations; pair rows up so that some composite keys repeat too
      for (int i = 3; i < rows; i += 7) {
        for (int k = 0; k < width; k++) {
          build[k].longs[i] = build[k].longs[i - 1];
        }
      }
      build[width] = Col.longs(rows, 0);
      int[] keyIndexes = new int[width];
      for (int k = 0; k < width; k++) {
        keyIndexes[k] = k;
      }
      try (MemoryBudget budget = MemoryBudget.none()) {
        JoinTable table = JoinTable.build(build, rows, keyIndexes, budget);
        assertThat(table.packsKeys()).as(what + ": packed").isEqualTo(c[3]);
        int n = 3_000;
        Col[] probe = new Col[width];
        for (int k = 0; k < width; k++) {
          long low = spans[k][0];
          long high = spans[k][1];
          probe[k] = keys(n, low == Long.MIN_VALUE ? low : low - 3, high == Long.MAX_VALUE ? high : high + 3,
              k == 0, k == 1);
        }
        for (int i = 0; i < n; i += 2) {
          int from = random.nextInt(rows);
          for (int k = 0; k < width; k++) {
            if (!probe[k].isWide(i)) {
              probe[k].longs[i] = build[k].longs[from];
            }
          }
        }
        JoinTable.Matches matches = table.probe(Batch.of(probe, n), keyIndexes);
        List<String> actual = new ArrayList<>();
        for (int m = 0; m < matches.count(); m++) {
          actual.add(matches.probeRows()[m] + "-" + matches.buildRows()[m]);
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          for (int r = 0; r < rows; r++) {
            boolean equal = true;
            for (int k = 0; k < width && equal; k++) {
              equal = !probe[k].isNull(i) && !probe[k].isWide(i) && !build[k].isNull(r)
                  && probe[k].longs[i] == build[k].longs[r];
            }
            if (equal) {
              expected.add(i + "-" + r);
            }
          }
        }
        assertThat(actual).as(what).isEqualTo(expected).isNotEmpty();
      }
    }
  }

  private List<String> nestedLoop(Col probe, int n, Col build, int rows) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (probe.isNull(i) || probe.isWide(i)) {
        continue;
      }
      for (int r = 0; r < rows; r++) {
        if (!build.isNull(r) && build.longs[r] == probe.longs[i]) {
          out.add(i + "-" + r);
        }
      }
    }
    return out;
  }

  /** {@code n} keys in [low, high], both ends among them, some NULL, and (when asked) some beyond a long. */
  private Col keys(int n, long low, long high, boolean withNulls, boolean withWide) {
    Col col = Col.longs(n, 0);
    long span = high - low;
    for (int i = 0; i < n; i++) {
      col.longs[i] = i == 0 ? low : i == 1 ? high
          : low + (span + 1 == 0 ? random.nextLong() : Long.remainderUnsigned(random.nextLong(), span + 1));
      if (withNulls && i > 1 && random.nextInt(9) == 0) {
        col.setNull(i);
      } else if (withWide && i > 1 && random.nextInt(11) == 0) {
        col.setWide(i, new BigDecimal(Long.MAX_VALUE).add(BigDecimal.valueOf(1 + random.nextInt(5))));
      }
    }
    return col;
  }

  private static Batch batch(Col column) {
    return new Batch() {
      @Override
      public int size() {
        return column.size;
      }

      @Override
      public Col column(int index) {
        return column;
      }

      @Override
      public Batch select(int[] positions, int count) {
        throw new UnsupportedOperationException();
      }
    };
  }
}
