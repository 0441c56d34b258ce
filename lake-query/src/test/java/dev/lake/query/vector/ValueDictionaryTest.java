package dev.lake.query.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A group key's string ids are dense and exact: one id per distinct string, whatever their hashes. */
class ValueDictionaryTest {
  @Test
  void equalStringsShareAnIdAndDistinctOnesNever() {
    Random random = new Random(1010);
    ValueDictionary dictionary = new ValueDictionary();
    Map<String, Integer> seen = new HashMap<>();
    for (int round = 0; round < 40; round++) {
      int rows = 1 + random.nextInt(5_000);
      byte[][] values = new byte[rows][];
      String[] texts = new String[rows];
      for (int i = 0; i < rows; i++) {
        int kind = random.nextInt(10);
        // repeats, long strings, the empty one, and Java's colliding pairs ("Aa"/"BB" hash alike)
        texts[i] = kind == 0 ? "" : kind == 1 ? (random.nextBoolean() ? "AaAa" : "BBBB")
            : kind == 2 ? "Customer#" + random.nextInt(50) : kind == 3 ? "x".repeat(20 + random.nextInt(40))
            : "c" + random.nextInt(200_000) + "-" + random.nextInt(3);
        values[i] = texts[i].getBytes(StandardCharsets.UTF_8);
      }
      StringSource source = StringSource.of(values);
      for (int i = 0; i < rows; i++) {
        int id = dictionary.stringId(source, i);
        Integer known = seen.putIfAbsent(texts[i], id);
        assertThat(id).as("the id of '%s'", texts[i]).isEqualTo(known == null ? id : known);
        assertThat(new String(dictionary.string(id), StandardCharsets.UTF_8)).isEqualTo(texts[i]);
      }
    }
    assertThat(seen.values()).as("dense ids, one per distinct string").doesNotHaveDuplicates()
        .allSatisfy(id -> assertThat(id).isBetween(0, seen.size() - 1));
  }
}
