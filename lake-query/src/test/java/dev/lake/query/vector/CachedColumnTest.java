package dev.lake.query.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cached fragment column holds LONG values in the narrowest array their range fits and dictionary codes in one or
 * two bytes, and reads every value back exactly: contiguous and gathered, NULLs, the ends of the long range, and the
 * range filter that tests the narrow values in place.
 */
class CachedColumnTest {
  private final BufferAllocator allocator = new RootAllocator();
  private final Random random = new Random(42);

  @AfterEach
  void close() {
    allocator.close();
  }

  @Test
  void longColumnsAreHeldNarrowAndReadBackExactly() {
    long[][] spans = {
        {0, 0, 1}, {-7, 248, 1}, {1_000, 1_255, 1}, {1_000, 1_256, 2}, {-40_000, 25_535, 2}, {0, 65_536, 4},
        {Integer.MIN_VALUE, Integer.MAX_VALUE, 4}, {-5, (1L << 32) - 6, 4}, {0, 1L << 32, 8},
        {Long.MIN_VALUE, Long.MIN_VALUE + 255, 1}, {Long.MAX_VALUE - 255, Long.MAX_VALUE, 1},
        {Long.MAX_VALUE - 65_535, Long.MAX_VALUE, 2}, {Long.MIN_VALUE, Long.MIN_VALUE + 0xFFFF_FFFFL, 4},
        {Long.MIN_VALUE, Long.MAX_VALUE, 8}};
    for (long[] span : spans) {
      for (boolean withNulls : new boolean[] {false, true}) {
        int rows = 3_000 + random.nextInt(2_000);
        long[] values = new long[rows];
        boolean[] nulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
          // both ends appear, the rest is spread between them
          values[i] = i == 0 ? span[0] : i == 1 ? span[1] : span[0] + Long.remainderUnsigned(random.nextLong(),
              span[1] - span[0] + 1 == 0 ? Long.MAX_VALUE : span[1] - span[0] + 1);
          nulls[i] = withNulls && i > 1 && random.nextInt(7) == 0;
        }
        CachedColumn column = build(values, nulls);
        String what = "span " + span[0] + ".." + span[1] + (withNulls ? " with NULLs" : "");
        assertThat(column.bytes()).as(what + ": bytes held").isEqualTo(span[2] * rows + (withNulls ? rows : 0) + 64);
        checkValues(column, values, nulls, what);
        checkRanges(column, values, nulls, span, what);
      }
    }
  }

  @Test
  void dictionaryCodesAreHeldNarrowAndReadBackExactly() {
    for (int distinct : new int[] {1, 256, 257, 5_000}) {
      int rows = Math.max(4 * distinct + 100, 2_000);
      String[] values = new String[rows];
      for (int i = 0; i < rows; i++) {
        values[i] = i < distinct ? "v" + i + "é" : "v" + random.nextInt(distinct) + "é";
      }
      CachedColumn column;
      try (VarCharVector vector = new VarCharVector("s", allocator)) {
        vector.allocateNew(rows);
        long dictionary = 0;
        for (int i = 0; i < rows; i++) {
          vector.setSafe(i, values[i].getBytes(StandardCharsets.UTF_8));
        }
        for (int d = 0; d < distinct; d++) {
          dictionary += ("v" + d + "é").getBytes(StandardCharsets.UTF_8).length + 32L;
        }
        vector.setValueCount(rows);
        CachedColumn.Builder builder = new CachedColumn.Builder(new Col(Kind.STRING, 0, 0), rows);
        builder.append(vector);
        column = builder.build();
        assertThat(column.bytes()).as(distinct + " values: bytes held")
            .isEqualTo(dictionary + (distinct <= 256 ? 1L : 2L) * rows + 64);
      }
      int[] gathered = gathered(rows);
      Col all = column.read(null, 0, rows);
      Col some = column.read(gathered, 0, gathered.length);
      for (int i = 0; i < rows; i++) {
        assertThat(all.string(i)).as(distinct + " values, row " + i).isEqualTo(values[i]);
      }
      for (int i = 0; i < gathered.length; i++) {
        assertThat(some.string(i)).as(distinct + " values, gathered row " + gathered[i]).isEqualTo(values[gathered[i]]);
      }
    }
  }

  /**
   * Short values (at most 7 bytes: compared as one long each) and a column with one longer value (compared byte by
   * byte) dictionary-encode to exactly their bytes: the empty value apart from a zero byte and two zero bytes, bytes
   * 0x80-0xFF, runs of one value, NULLs, both sides of the 7-byte edge.
   */
  @Test
  void shortAndLongValuesDictionaryEncodeToTheirExactBytes() {
    byte[][] pool = {
        {}, {0}, {0, 0}, {0, 0, 0, 0, 0, 0, 0}, {(byte) 0xFF}, {(byte) 0xC3, (byte) 0xA9}, {'A'}, {'A', 0},
        {'N', 'O', 'N', 'E'}, {1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1}, {(byte) 0x80, 0, 0, 0, 0, 0, (byte) 0x80}};
    byte[] eight = {1, 2, 3, 4, 5, 6, 7, 8};
    for (boolean withLong : new boolean[] {false, true}) {
      int rows = 4_000;
      byte[][] values = new byte[rows][];
      for (int i = 0; i < rows; i++) {
        int pick = i < pool.length ? i : (i / 50) % 3 == 0 ? 1 : random.nextInt(pool.length + 1);
        values[i] = pick == pool.length ? null : pool[pick];
      }
      if (withLong) {
        values[rows - 7] = eight;
      }
      CachedColumn column;
      try (VarCharVector vector = new VarCharVector("s", allocator)) {
        vector.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          if (values[i] == null) {
            vector.setNull(i);
          } else {
            vector.setSafe(i, values[i]);
          }
        }
        vector.setValueCount(rows);
        CachedColumn.Builder builder = new CachedColumn.Builder(new Col(Kind.STRING, 0, 0), rows);
        builder.append(vector);
        column = builder.build();
      }
      int distinct = pool.length + (withLong ? 1 : 0);
      assertThat(column.bytes()).as("dictionary of %d values, with an 8-byte value: %s", distinct, withLong)
          .isLessThan(3L * rows);
      Col all = column.read(null, 0, rows);
      for (int i = 0; i < rows; i++) {
        assertThat(all.isNull(i)).as("NULL at row " + i).isEqualTo(values[i] == null);
        if (values[i] != null) {
          assertThat(all.strings.bytes(i)).as("row " + i + (withLong ? ", with an 8-byte value" : ""))
              .isEqualTo(values[i]);
        }
      }
    }
  }

  /**
   * A comparison of two cached columns held narrow (dates as shorts with different bases, keys as ints) is tested
   * in place and keeps exactly the rows a naive comparison keeps, NULLs on either side dropped.
   */
  @Test
  void columnComparisonsOverNarrowColumnsAreExact() {
    long[][] spans = {{8_000, 10_500}, {8_020, 10_560}, {-2_000_000_000L, 1_000_000_000L},
        {-1_999_000_000L, 1_100_000_000L}, {0, 200}, {Long.MAX_VALUE - 60_000, Long.MAX_VALUE}};
    int[][] pairs = {{0, 1}, {1, 0}, {2, 3}, {0, 4}, {0, 2}, {5, 5}};
    for (int[] pair : pairs) {
      int rows = 5_000;
      long[][] values = new long[2][rows];
      boolean[][] nulls = new boolean[2][rows];
      for (int side = 0; side < 2; side++) {
        long[] span = spans[pair[side]];
        for (int i = 0; i < rows; i++) {
          values[side][i] = i < 2 ? span[i] : span[0] + random.nextLong(span[1] - span[0] + 1);
          nulls[side][i] = i > 1 && random.nextInt(13) == 0;
        }
      }
      // some rows equal, so that = and >= have something to keep
      for (int i = 2; i < rows; i += 4) {
        if (values[0][i] >= spans[pair[1]][0] && values[0][i] <= spans[pair[1]][1]) {
          values[1][i] = values[0][i];
        }
      }
      CachedColumn[] columns = {build(values[0], nulls[0]), build(values[1], nulls[1])};
      for (Comparison op : Comparison.values()) {
        Compare compare = new Compare(op, new Expr.Input(0, Kind.LONG, 2), new Expr.Input(1, Kind.LONG, 2));
        ScanBatch batch = ScanBatch.range(columns, 0, rows);
        int[] positions = new int[rows];
        int[] count = new int[1];
        int[] kept = compare.trueRows(batch, count);
        List<Integer> actual = new ArrayList<>();
        for (int i = 0; i < count[0]; i++) {
          actual.add(kept[i]);
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
          if (!nulls[0][i] && !nulls[1][i] && op.test(Long.compare(values[0][i], values[1][i]))) {
            expected.add(i);
          }
        }
        String what = "spans " + pair[0] + " " + op + " " + pair[1];
        assertThat(actual).as(what).isEqualTo(expected);
        boolean bothShorts = pair[0] <= 1 && pair[1] <= 1;
        if (bothShorts) {
          assertThat(compare.refine(batch, positions, rows, true)).as(what + ": tested in place")
              .isEqualTo(expected.size());
        }
      }
    }
  }

  private CachedColumn build(long[] values, boolean[] nulls) {
    return longColumn(allocator, values, nulls, 2);
  }

  /**
   * A cached LONG column of {@code values} at {@code scale} ({@code nulls[i]}: row i NULL), appended from two loaded
   * batches as Lance hands them over.
   */
  static CachedColumn longColumn(BufferAllocator allocator, long[] values, boolean[] nulls, int scale) {
    CachedColumn.Builder builder = new CachedColumn.Builder(new Col(Kind.LONG, 0, scale), values.length);
    int split = values.length / 3;
    for (int[] part : new int[][] {{0, split}, {split, values.length}}) {
      try (BigIntVector vector = new BigIntVector("x", allocator)) {
        vector.allocateNew(part[1] - part[0]);
        for (int i = part[0]; i < part[1]; i++) {
          if (nulls[i]) {
            vector.setNull(i - part[0]);
          } else {
            vector.set(i - part[0], values[i]);
          }
        }
        vector.setValueCount(part[1] - part[0]);
        builder.append(vector);
      }
    }
    return builder.build();
  }

  private void checkValues(CachedColumn column, long[] values, boolean[] nulls, String what) {
    int from = random.nextInt(100);
    int size = values.length - from - random.nextInt(100);
    Col contiguous = column.read(null, from, size);
    for (int i = 0; i < size; i++) {
      assertThat(contiguous.isNull(i)).as(what + ": NULL at " + (from + i)).isEqualTo(nulls[from + i]);
      if (!nulls[from + i]) {
        assertThat(contiguous.longs[i]).as(what + ": row " + (from + i)).isEqualTo(values[from + i]);
      }
    }
    int[] rows = gathered(values.length);
    Col gathered = column.read(rows, 0, rows.length);
    for (int i = 0; i < rows.length; i++) {
      assertThat(gathered.isNull(i)).as(what + ": NULL at gathered " + rows[i]).isEqualTo(nulls[rows[i]]);
      if (!nulls[rows[i]]) {
        assertThat(gathered.longs[i]).as(what + ": gathered row " + rows[i]).isEqualTo(values[rows[i]]);
      }
    }
  }

  /** Range filters over the cached column in place (contiguous) and read (a gathered selection) against a naive test. */
  private void checkRanges(CachedColumn column, long[] values, boolean[] nulls, long[] span, String what) {
    List<long[]> bounds = new ArrayList<>();
    bounds.add(new long[] {span[0], span[1]});
    bounds.add(new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
    bounds.add(new long[] {span[1], span[0]});
    for (int k = 0; k < 6; k++) {
      long a = values[random.nextInt(values.length)];
      long b = values[random.nextInt(values.length)];
      bounds.add(new long[] {Math.min(a, b), Math.max(a, b)});
      bounds.add(new long[] {a, a});
    }
    int rows = values.length;
    for (long[] bound : bounds) {
      Range range = new Range(new Expr.Input(0, Kind.LONG, 2), bound[0], bound[1]);
      ScanBatch batch = ScanBatch.range(new CachedColumn[] {column}, 0, rows);
      assertThat(batch.direct(0)).isNotNull();
      int[] positions = new int[rows];
      int kept = range.refine(batch, positions, rows, true);
      List<Integer> expected = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        if (!nulls[i] && values[i] >= bound[0] && values[i] <= bound[1]) {
          expected.add(i);
        }
      }
      List<Integer> actual = new ArrayList<>();
      for (int i = 0; i < kept; i++) {
        actual.add(positions[i]);
      }
      assertThat(actual).as(what + ": range " + bound[0] + ".." + bound[1]).isEqualTo(expected);
      // every other row: not contiguous, so the column is read
      int[] every = new int[rows / 2];
      for (int i = 0; i < every.length; i++) {
        every[i] = 2 * i;
      }
      Batch selected = batch.select(every, every.length);
      int[] selectedPositions = new int[every.length];
      int keptSelected = range.refine(selected, selectedPositions, every.length, true);
      List<Integer> selectedActual = new ArrayList<>();
      for (int i = 0; i < keptSelected; i++) {
        selectedActual.add(2 * selectedPositions[i]);
      }
      assertThat(selectedActual).as(what + ": range over even rows " + bound[0] + ".." + bound[1])
          .isEqualTo(expected.stream().filter(i -> i % 2 == 0 && i / 2 < every.length).toList());
    }
  }

  /** About a third of the rows, ascending, with gaps. */
  private int[] gathered(int rows) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      if (random.nextInt(3) == 0) {
        out.add(i);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }
}
