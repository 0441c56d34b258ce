package dev.lake.query.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The vectorized LIKE against a regular expression of the same pattern, on random values over a small alphabet (so
 * pieces occur, overlap and repeat), through every string source: values held one array each, values in one shared
 * byte array with offsets (matched in place), and dictionary codes (each distinct value matched once per batch).
 */
class LikeTest {
  private static final String ALPHABET = "abé%";

  @Test
  void likeMatchesWhatTheRegularExpressionOfItsPatternMatchesInEverySource() {
    Random random = new Random(22);
    for (int round = 0; round < 300; round++) {
      String pattern = pattern(random);
      Like like = Like.of(new Expr.Input(0, Kind.STRING, 0), pattern);
      Pattern regex = regex(pattern);
      int rows = 1 + random.nextInt(64);
      byte[][] values = new byte[rows][];
      for (int i = 0; i < rows; i++) {
        values[i] = value(random).getBytes(StandardCharsets.UTF_8);
      }
      long[] expected = new long[rows];
      for (int i = 0; i < rows; i++) {
        expected[i] = regex.matcher(new String(values[i], StandardCharsets.UTF_8)).matches() ? 1 : 0;
        assertThat(like.matches(values[i], 0, values[i].length) ? 1L : 0L).as("%s LIKE %s", new String(values[i],
            StandardCharsets.UTF_8), pattern).isEqualTo(expected[i]);
      }
      assertThat(eval(like, StringSource.of(values), rows)).as("held, LIKE %s", pattern).containsExactly(expected);
      assertThat(eval(like, shared(values, random), rows)).as("in place, LIKE %s", pattern)
          .containsExactly(expected);
      assertThat(eval(like, dictionary(values), rows)).as("dictionary, LIKE %s", pattern)
          .containsExactly(expected);
    }
  }

  @Test
  void nullRowsStayNull() {
    Like like = Like.of(new Expr.Input(0, Kind.STRING, 0), "%a%");
    Col column = new Col(Kind.STRING, 3, 0);
    column.strings = StringSource.of(new byte[][] {"a".getBytes(StandardCharsets.UTF_8), new byte[0],
        "b".getBytes(StandardCharsets.UTF_8)});
    column.setNull(1);
    Col out = like.eval(Batch.of(new Col[] {column}, 3));
    assertThat(out.isNull(1)).isTrue();
    assertThat(out.longs[0]).isEqualTo(1);
    assertThat(out.longs[2]).isZero();
  }

  private static long[] eval(Like like, StringSource source, int rows) {
    Col column = new Col(Kind.STRING, rows, 0);
    column.strings = source;
    Col out = like.eval(Batch.of(new Col[] {column}, rows));
    return java.util.Arrays.copyOf(out.longs, rows);
  }

  /** The values in one byte array with junk around each, read through offsets in a shuffled row order. */
  private static StringSource shared(byte[][] values, Random random) {
    int rows = values.length;
    int[] order = new int[rows];
    for (int i = 0; i < rows; i++) {
      order[i] = i;
    }
    for (int i = rows - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
    int[] offsets = new int[2 * rows + 1];
    int[] rowOf = new int[rows];
    for (int k = 0; k < rows; k++) {
      int row = order[k];
      offsets[2 * k] = data.size();
      data.writeBytes(value(random).getBytes(StandardCharsets.UTF_8)); // a value no row reads: bytes around
      offsets[2 * k + 1] = data.size();
      data.writeBytes(values[row]);
      rowOf[row] = 2 * k + 1;
    }
    offsets[2 * rows] = data.size();
    return StringSource.of(data.toByteArray(), offsets, rowOf);
  }

  private static StringSource dictionary(byte[][] values) {
    List<String> distinct = new ArrayList<>();
    int[] codes = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      String value = new String(values[i], StandardCharsets.UTF_8);
      int code = distinct.indexOf(value);
      if (code < 0) {
        code = distinct.size();
        distinct.add(value);
      }
      codes[i] = code;
    }
    byte[][] dictionary = new byte[distinct.size()][];
    long[] inline = new long[dictionary.length];
    int[] hashes = new int[dictionary.length];
    for (int c = 0; c < dictionary.length; c++) {
      dictionary[c] = distinct.get(c).getBytes(StandardCharsets.UTF_8);
      inline[c] = StringSource.pack(dictionary[c]);
      hashes[c] = StringSource.hash(dictionary[c]);
    }
    return StringSource.dictionary(dictionary, inline, hashes, codes);
  }

  private static String pattern(Random random) {
    StringBuilder pattern = new StringBuilder();
    int length = random.nextInt(7);
    for (int i = 0; i < length; i++) {
      pattern.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return pattern.toString();
  }

  private static String value(Random random) {
    StringBuilder value = new StringBuilder();
    int length = random.nextInt(9);
    for (int i = 0; i < length; i++) {
      value.append(ALPHABET.charAt(random.nextInt(ALPHABET.length() - 1))); // no '%' in values
    }
    return value.toString();
  }

  private static Pattern regex(String pattern) {
    StringBuilder regex = new StringBuilder();
    for (String piece : pattern.split("%", -1)) {
      if (regex.length() > 0 || pattern.startsWith("%")) {
        regex.append(".*");
      }
      regex.append(Pattern.quote(piece));
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }
}
