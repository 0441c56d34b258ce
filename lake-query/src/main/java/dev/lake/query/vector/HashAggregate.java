package dev.lake.query.vector;

import java.util.List;

/**
 * A hash aggregate over batches: group keys (input columns) encoded into long tuples ({@link KeyTable}; strings and
 * out-of-long decimals through a {@link ValueDictionary} per key), then each {@link Accumulator} adds the batch's
 * column by group id. Fragments aggregate into partial instances; {@link #merge} folds one into another. Without
 * group keys it has exactly one group, also over no rows.
 */
final class HashAggregate implements AutoCloseable {
  private static final long NULL_FLAG = 1;
  private static final long OBJECT_FLAG = 2;
  private static final int BYTES_PER_WORD = 8;

  private final int[] keys;
  private final Col[] keyShapes;
  private final List<AggSpec> specs;
  private final Accumulator[] accumulators;
  private final ValueDictionary[] dictionaries;
  private final KeyTable table;
  private final MemoryBudget budget;

  /**
   * @param keys the input columns grouped by; {@code keyShapes} their kinds and scales
   * @param argShapes the kind and scale of each aggregate's argument (null for COUNT(*))
   */
  HashAggregate(int[] keys, Col[] keyShapes, List<AggSpec> specs, Col[] argShapes, MemoryBudget budget) {
    this.keys = keys.clone();
    this.keyShapes = keyShapes.clone();
    this.specs = List.copyOf(specs);
    this.budget = budget;
    this.accumulators = new Accumulator[specs.size()];
    for (int a = 0; a < accumulators.length; a++) {
      Col arg = argShapes[a];
      accumulators[a] = specs.get(a).newAccumulator(arg == null ? Kind.LONG : arg.kind, arg == null ? 0 : arg.scale);
    }
    this.dictionaries = new ValueDictionary[keys.length];
    for (int k = 0; k < keys.length; k++) {
      dictionaries[k] = new ValueDictionary();
    }
    this.table = new KeyTable(keys.length + 1);
    if (keys.length == 0) {
      table.findOrAdd(new long[1], 0);
      ensure();
    }
  }

  int groups() {
    return table.groups();
  }

  void add(Batch batch) {
    int n = batch.size();
    if (n == 0) {
      return;
    }
    int[] groupIds = groupIds(batch, n);
    ensure();
    for (int a = 0; a < accumulators.length; a++) {
      int argument = specs.get(a).argument();
      accumulators[a].add(groupIds, argument < 0 ? null : batch.column(argument), n);
    }
  }

  /** Folds the groups of {@code partial} (same keys and aggregates) into this one. */
  void merge(HashAggregate partial) {
    int groups = partial.groups();
    if (groups == 0) {
      return;
    }
    int[] mapping = groupIds(partial.keyBatch(), groups);
    ensure();
    for (int a = 0; a < accumulators.length; a++) {
      accumulators[a].merge(partial.accumulators[a], mapping, groups);
    }
  }

  /** The key columns then the aggregate columns, one row per group. */
  Batch result() {
    int groups = groups();
    Col[] columns = new Col[keys.length + accumulators.length];
    Batch keyBatch = keyBatch();
    for (int k = 0; k < keys.length; k++) {
      columns[k] = keyBatch.column(k);
    }
    for (int a = 0; a < accumulators.length; a++) {
      columns[keys.length + a] = accumulators[a].result(groups);
    }
    return Batch.of(columns, groups);
  }

  private int[] groupIds(Batch batch, int n) {
    int width = keys.length + 1;
    long[] codes = new long[n * width];
    for (int k = 0; k < keys.length; k++) {
      encode(k, batch.column(keys[k]), codes, width, n);
    }
    int[] groupIds = new int[n];
    for (int i = 0; i < n; i++) {
      groupIds[i] = table.findOrAdd(codes, i * width);
    }
    return groupIds;
  }

  private void encode(int k, Col col, long[] codes, int width, int n) {
    int flags = keys.length;
    int shift = 2 * k;
    for (int i = 0; i < n; i++) {
      int at = i * width;
      if (col.isNull(i)) {
        codes[at + flags] |= NULL_FLAG << shift;
      } else if (col.kind == Kind.STRING) {
        long inline = col.strings.inline(i);
        if (inline >= 0) {
          codes[at + k] = inline;
        } else {
          codes[at + k] = dictionaries[k].stringId(col.strings, i);
          codes[at + flags] |= OBJECT_FLAG << shift;
        }
      } else if (col.kind == Kind.DOUBLE) {
        double d = col.doubles[i];
        codes[at + k] = Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
      } else if (col.isWide(i)) {
        codes[at + k] = dictionaries[k].objectId(col.wide[i].stripTrailingZeros());
        codes[at + flags] |= OBJECT_FLAG << shift;
      } else {
        codes[at + k] = col.longs[i];
      }
    }
  }

  /** The decoded key of every group, as columns. */
  private Batch keyBatch() {
    int groups = groups();
    int flags = keys.length;
    Col[] columns = new Col[keys.length];
    for (int k = 0; k < keys.length; k++) {
      Col shape = keyShapes[k];
      Col out = shape.kind == Kind.DOUBLE ? Col.doubles(groups) : shape.kind == Kind.STRING
          ? new Col(Kind.STRING, groups, 0) : shape.kind == Kind.BOOL ? Col.bools(groups)
          : Col.longs(groups, shape.scale);
      byte[][] strings = shape.kind == Kind.STRING ? new byte[groups][] : null;
      for (int g = 0; g < groups; g++) {
        long code = table.key(g, k);
        long flag = (table.key(g, flags) >>> (2 * k)) & 3;
        if ((flag & NULL_FLAG) != 0) {
          out.setNull(g);
        } else if (strings != null) {
          strings[g] = (flag & OBJECT_FLAG) != 0 ? dictionaries[k].string((int) code) : StringSource.unpack(code);
        } else if (shape.kind == Kind.DOUBLE) {
          out.doubles[g] = Double.longBitsToDouble(code);
        } else if ((flag & OBJECT_FLAG) != 0) {
          out.setWide(g, ((java.math.BigDecimal) dictionaries[k].object((int) code)).setScale(shape.scale));
        } else {
          out.longs[g] = code;
        }
      }
      if (strings != null) {
        out.strings = StringSource.of(strings);
      }
      columns[k] = out;
    }
    return Batch.of(columns, groups);
  }

  private void ensure() {
    int groups = table.groups();
    for (Accumulator accumulator : accumulators) {
      accumulator.ensure(groups);
    }
    budget.chargeTo((long) groups * BYTES_PER_WORD * (2L * table.width() + 3L * accumulators.length + 4));
  }

  @Override
  public void close() {
    budget.close();
  }
}
