package dev.lake.query.vector;

import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;

/**
 * {@code column IN (keys)} over an integer column, for a runtime join filter evaluated on cached columns: the keys
 * (collected from a hash join's build side when the query runs) in an open-addressing set of longs, probed once per
 * row. NULL rows are not kept.
 */
public record InKeys(Expr.Input input, long[] slots, boolean hasZero, int mask) implements Expr.Bool, Refinable {
  private static final long EMPTY = 0;

  /** The condition for {@code keys}, when every key is an integer (else empty: the caller keeps Lance's filter). */
  public static Optional<InKeys> of(int column, Collection<Object> keys) {
    int capacity = Integer.highestOneBit(Math.max(8, keys.size() * 2)) << 1;
    long[] slots = new long[capacity];
    boolean zero = false;
    for (Object key : keys) {
      if (!(key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof Byte)) {
        return Optional.empty();
      }
      long value = ((Number) key).longValue();
      if (value == EMPTY) {
        zero = true;
        continue;
      }
      int slot = slot(value, capacity - 1);
      while (slots[slot] != EMPTY && slots[slot] != value) {
        slot = (slot + 1) & (capacity - 1);
      }
      slots[slot] = value;
    }
    return Optional.of(new InKeys(new Expr.Input(column, Kind.LONG, 0), slots, zero, capacity - 1));
  }

  private static int slot(long value, int mask) {
    long h = value * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  boolean contains(long value) {
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
