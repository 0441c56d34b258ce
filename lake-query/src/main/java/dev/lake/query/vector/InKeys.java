package dev.lake.query.vector;

import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;

/**
 * {@code column IN (keys)} over an integer column, for a runtime join filter evaluated on cached columns: the keys
 * (collected from a hash join's build side when the query runs) as one bit per value of their range when that range
 * is narrow ({@link #MAX_BITS_PER_KEY} values per key, at most {@link #MAX_BITS}: TPC-H Q2's 750 part keys of
 * 200,000 take 25 KB), else in an open-addressing set of longs; probed once per row, over a cached column held
 * narrow in place ({@link ScanBatch#direct}). NULL rows are not kept.
 *
 * @param bits one bit per value {@code min .. min + span - 1}, set for the keys; null when the keys are hashed
 * @param keys how many distinct keys there are
 */
public record InKeys(Expr.Input input, long[] slots, boolean hasZero, int mask, long[] bits, long min, long span,
    int keys) implements Expr.Bool, Refinable {
  private static final long EMPTY = 0;
  /** Keys spread wider than this many values per key are hashed, not held as bits. */
  static final long MAX_BITS_PER_KEY = 1_024;
  /** The widest range held as bits (1 MB), whatever the number of keys. */
  static final long MAX_BITS = 1L << 23;

  /** The condition for {@code keys}, when every key is an integer (else empty: the caller keeps Lance's filter). */
  public static Optional<InKeys> of(int column, Collection<Object> keys) {
    int capacity = Integer.highestOneBit(Math.max(8, keys.size() * 2)) << 1;
    long[] slots = new long[capacity];
    boolean zero = false;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    int distinct = 0;
    for (Object key : keys) {
      if (!(key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof Byte)) {
        return Optional.empty();
      }
      long value = ((Number) key).longValue();
      min = Math.min(min, value);
      max = Math.max(max, value);
      if (value == EMPTY) {
        distinct += zero ? 0 : 1;
        zero = true;
        continue;
      }
      int slot = slot(value, capacity - 1);
      while (slots[slot] != EMPTY && slots[slot] != value) {
        slot = (slot + 1) & (capacity - 1);
      }
      distinct += slots[slot] == EMPTY ? 1 : 0;
      slots[slot] = value;
    }
    Expr.Input input = new Expr.Input(column, Kind.LONG, 0);
    if (distinct == 0) {
      return Optional.of(new InKeys(input, slots, false, capacity - 1, new long[0], 0, 0, 0));
    }
    // max - min + 1 without overflow: as unsigned, beyond the limit unless it fits.
    long span = max - min + 1;
    boolean narrow = span > 0 && Long.compareUnsigned(max - min, Long.MAX_VALUE) < 0
        && span <= Math.min(MAX_BITS, Math.max(1L << 16, MAX_BITS_PER_KEY * distinct));
    if (!narrow) {
      return Optional.of(new InKeys(input, slots, zero, capacity - 1, null, min, 0, distinct));
    }
    long[] bits = new long[(int) ((span + 63) >>> 6)];
    for (long slot : slots) {
      if (slot != EMPTY) {
        long offset = slot - min;
        bits[(int) (offset >>> 6)] |= 1L << offset;
      }
    }
    if (zero) {
      long offset = -min;
      bits[(int) (offset >>> 6)] |= 1L << offset;
    }
    return Optional.of(new InKeys(input, slots, zero, capacity - 1, bits, min, span, distinct));
  }

  private static int slot(long value, int mask) {
    long h = value * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  /**
   * The share of the values of the keys' range that are keys (1 when they are hashed): of two key sets over columns
   * of similar ranges, the sparser keeps fewer rows, so it is tested first.
   */
  public double density() {
    return bits == null || span == 0 ? 1 : (double) keys / span;
  }

  boolean contains(long value) {
    if (bits != null) {
      long offset = value - min;
      return Long.compareUnsigned(offset, span) < 0 && (bits[(int) (offset >>> 6)] & (1L << offset)) != 0;
    }
    if (value == EMPTY) {
      return hasZero;
    }
    int slot = slot(value, mask);
    while (true) {
      long at = slots[slot];
      if (at == value) {
        return true;
      }
      if (at == EMPTY) {
        return false;
      }
      slot = (slot + 1) & mask;
    }
  }

  @Override
  public int refine(Batch batch, int[] positions, int count, boolean identity) {
    ScanBatch.Direct direct = batch instanceof ScanBatch ? ((ScanBatch) batch).direct(input.index()) : null;
    if (direct != null && direct.scale() == 0) {
      return Refinable.dropNulls(direct.nulls(), direct.offset(), positions,
          bits != null ? refineBits(direct, positions, count, identity) : refineHashed(direct, positions, count,
              identity));
    }
    Col a = input.eval(batch);
    if (a.wide != null || a.scale != 0) {
      return -1;
    }
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int p = identity ? j : positions[j];
      positions[kept] = p;
      kept += !a.isNull(p) && contains(a.longs[p]) ? 1 : 0;
    }
    return kept;
  }

  /**
   * The rows of a cached column whose value is a key, tested in place: {@code held - (min - base)} is the value's
   * offset in the keys' range (a value outside it wraps past {@code span} as unsigned).
   */
  private int refineBits(ScanBatch.Direct direct, int[] positions, int count, boolean identity) {
    int offset = direct.offset();
    long shift = min - direct.base();
    long[] set = bits;
    long width = span;
    int kept = 0;
    if (direct.ints() != null) {
      int[] x = direct.ints();
      for (int j = 0; j < count; j++) {
        int p = identity ? j : positions[j];
        positions[kept] = p;
        long at = x[offset + p] - shift;
        kept += Long.compareUnsigned(at, width) < 0 ? (int) (set[(int) (at >>> 6)] >>> at) & 1 : 0;
      }
    } else if (direct.shorts() != null) {
      short[] x = direct.shorts();
      for (int j = 0; j < count; j++) {
        int p = identity ? j : positions[j];
        positions[kept] = p;
        long at = x[offset + p] - shift;
        kept += Long.compareUnsigned(at, width) < 0 ? (int) (set[(int) (at >>> 6)] >>> at) & 1 : 0;
      }
    } else if (direct.tiny() != null) {
      byte[] x = direct.tiny();
      for (int j = 0; j < count; j++) {
        int p = identity ? j : positions[j];
        positions[kept] = p;
        long at = x[offset + p] - shift;
        kept += Long.compareUnsigned(at, width) < 0 ? (int) (set[(int) (at >>> 6)] >>> at) & 1 : 0;
      }
    } else {
      long[] x = direct.longs();
      for (int j = 0; j < count; j++) {
        int p = identity ? j : positions[j];
        positions[kept] = p;
        long at = x[offset + p] - shift;
        kept += Long.compareUnsigned(at, width) < 0 ? (int) (set[(int) (at >>> 6)] >>> at) & 1 : 0;
      }
    }
    return kept;
  }

  /** The rows of a cached column whose value ({@code held + base}) is in the hashed set. */
  private int refineHashed(ScanBatch.Direct direct, int[] positions, int count, boolean identity) {
    int offset = direct.offset();
    long base = direct.base();
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int p = identity ? j : positions[j];
      positions[kept] = p;
      kept += contains(direct.held(offset + p) + base) ? 1 : 0;
    }
    return kept;
  }

  @Override
  public int[] trueRows(Batch batch, int[] count) {
    return Refinable.trueRows(this, this, batch, count);
  }

  @Override
  public Col eval(Batch batch) {
    Col a = input.eval(batch);
    int n = batch.size();
    Col out = Col.bools(n);
    for (int i = 0; i < n; i++) {
      if (a.isNull(i)) {
        out.setNull(i);
      } else if (a.isWide(i) || a.scale != 0) {
        long value;
        try {
          value = a.decimal(i).longValueExact();
        } catch (ArithmeticException notAnInteger) {
          continue;
        }
        out.longs[i] = contains(value) ? 1 : 0;
      } else {
        out.longs[i] = contains(a.longs[i]) ? 1 : 0;
      }
    }
    return out;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof InKeys && ((InKeys) other).input.equals(input)
        && Arrays.equals(((InKeys) other).slots, slots) && ((InKeys) other).hasZero == hasZero;
  }

  @Override
  public int hashCode() {
    return input.hashCode() * 31 + Arrays.hashCode(slots);
  }
}
