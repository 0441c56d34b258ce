package dev.lake.query.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Group ids against a map of the same tuples: dense, in order of first appearance, through growth, for the
 * single-key layout (width 2: key word and flags word, also through the tuple entry point) and a wider one.
 */
class KeyTableTest {
  @Test
  void singleKeyTuplesGetDenseIdsInOrderOfFirstAppearance() {
    check(2, new Random(7), 200_000);
  }

  @Test
  void widerTuplesGetDenseIdsInOrderOfFirstAppearance() {
    check(3, new Random(8), 100_000);
  }

  private static void check(int width, Random random, int rows) {
    KeyTable table = new KeyTable(width);
    Map<List<Long>, Integer> expected = new HashMap<>();
    List<List<Long>> order = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      long[] tuple = new long[width];
      // clustered and sequential keys (the shapes that defeat weak hashes), a few flags, key 0 with and without
      tuple[0] = random.nextInt(4) == 0 ? random.nextInt(50_000) * 3L : random.nextLong() % 1_000;
      for (int w = 1; w < width - 1; w++) {
        tuple[w] = random.nextInt(5);
      }
      tuple[width - 1] = random.nextInt(8) == 0 ? random.nextInt(4) : 0;
      List<Long> key = new ArrayList<>();
      for (long word : tuple) {
        key.add(word);
      }
      Integer known = expected.get(key);
      if (known == null) {
        known = order.size();
        expected.put(key, known);
        order.add(key);
      }
      int got = width == 2 && (i & 1) == 0 ? table.findOrAdd(tuple[0], tuple[1]) : table.findOrAdd(tuple, 0);
      assertThat(got).as("row %d tuple %s", i, key).isEqualTo(known);
    }
    assertThat(table.groups()).isEqualTo(order.size());
    for (int g = 0; g < order.size(); g++) {
      for (int w = 0; w < width; w++) {
        assertThat(table.key(g, w)).isEqualTo(order.get(g).get(w));
      }
    }
  }
}
