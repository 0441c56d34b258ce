package dev.lake.query.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A runtime join filter over cached columns ({@code key IN (build keys)}) keeps exactly the non-NULL rows whose value
 * is a key, whether the keys are held as bits over their range (narrow) or hashed (spread wide), over columns held in
 * bytes, shorts, ints or longs (tested in place) and over plain batches; key sets filter sparsest first.
 */
class InKeysTest {
  private final BufferAllocator allocator = new RootAllocator();
  private final Random random = new Random(222);

  @AfterEach
  void close() {
    allocator.close();
  }

  @Test
  void keptRowsAreExactlyTheKeysWhetherHeldAsBitsOrHashed() {
    // {lowest value, highest value} of the column; the keys are drawn around and inside that range
    long[][] spans = {{0, 200}, {-30_000, 30_000}, {1, 200_000}, {-2_000_000_000L, 1_000_000_000L},
        {Long.MAX_VALUE - 60_000, Long.MAX_VALUE}, {Long.MIN_VALUE, Long.MAX_VALUE}};
    for (long[] span : spans) {
      for (int keyCount : new int[] {0, 1, 7, 750, 5_000}) {
        int rows = 4_000 + random.nextInt(3_000);
        long[] values = new long[rows];
        boolean[] nulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
          values[i] = i < 2 ? span[i] : pick(span);
          nulls[i] = i > 1 && random.nextInt(11) == 0;
        }
        Set<Object> keys = new HashSet<>();
        for (int k = 0; k < keyCount; k++) {
          // half of the keys are column values (some of NULL rows), the others anywhere near the range
          keys.add(random.nextBoolean() ? values[random.nextInt(rows)] : pick(span) + random.nextInt(5) - 2);
        }
        if (keyCount == 7) {
          keys.add(0L);
        }
        InKeys in = InKeys.of(0, keys).orElseThrow();
        String what = "span " + span[0] + ".." + span[1] + ", " + keys.size() + " keys"
            + (in.bits() != null ? " as bits" : " hashed");
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
          if (!nulls[i] && keys.contains(values[i])) {
            expected.add(i);
          }
        }
        CachedColumn[] cached = {build(values, nulls)};
        ScanBatch batch = ScanBatch.range(cached, 0, rows);
        int[] positions = new int[rows];
        int kept = in.refine(batch, positions, rows, true);
        assertThat(kept).as(what + ": tested in place over the cached column").isGreaterThanOrEqualTo(0);
        assertThat(prefix(positions, kept)).as(what + ": in place").isEqualTo(expected);
        Batch filtered = new Op.Filter(List.of(in)).apply(ScanBatch.range(cached, 0, rows));
        assertThat(filtered.size()).as(what + ": filter over cached rows").isEqualTo(expected.size());
        Col plain = Col.longs(rows, 0);
        for (int i = 0; i < rows; i++) {
          plain.longs[i] = values[i];
          if (nulls[i]) {
            plain.setNull(i);
          }
        }
        int[] count = new int[1];
        int[] rowsKept = in.trueRows(Batch.of(new Col[] {plain}, rows), count);
        assertThat(prefix(rowsKept, count[0])).as(what + ": over a plain batch").isEqualTo(expected);
      }
    }
  }

  @Test
  void keysOfANarrowRangeAreBitsAndTheSparsestSetIsTestedFirst() {
    // TPC-H Q2 at SF 1: about 750 of 200,000 part keys, 2,000 of 10,000 supplier keys
    Set<Object> parts = new HashSet<>();
    while (parts.size() < 750) {
      parts.add(1L + random.nextInt(200_000));
    }
    Set<Object> suppliers = new HashSet<>();
    while (suppliers.size() < 2_000) {
      suppliers.add(1 + random.nextInt(10_000));
    }
    InKeys partKeys = InKeys.of(0, parts).orElseThrow();
    InKeys supplierKeys = InKeys.of(1, suppliers).orElseThrow();
    assertThat(partKeys.bits()).isNotNull();
    assertThat(supplierKeys.bits()).isNotNull();
    assertThat(partKeys.density()).isLessThan(supplierKeys.density());
    Set<Object> spread = new HashSet<>(List.of(1L, 1L << 40));
    assertThat(InKeys.of(0, spread).orElseThrow().bits()).as("two keys 2^40 apart").isNull();
  }

  private long pick(long[] span) {
    return span[0] + Long.remainderUnsigned(random.nextLong(),
        span[1] - span[0] + 1 == 0 ? Long.MAX_VALUE : span[1] - span[0] + 1);
  }

  private static List<Integer> prefix(int[] positions, int count) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(positions[i]);
    }
    return out;
  }

  private CachedColumn build(long[] values, boolean[] nulls) {
    return CachedColumnTest.longColumn(allocator, values, nulls, 0);
  }
}
