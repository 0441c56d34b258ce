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
  /** Key dictionaries whose combinations number at most this map straight to group ids. */
  private static final int MAX_DICTIONARY_COMBINATIONS = 1 << 16;
  /** Marks a {@link #keyBatch}: key k is its column k. */
  private static final int[] KEY_BATCH_COLUMNS = new int[0];

  private final int[] keys;
  private final Col[] keyShapes;
  private final List<AggSpec> specs;
  private final Accumulator[] accumulators;
  private final ValueDictionary[] dictionaries;
  private final KeyTable table;
  private final MemoryBudget budget;
  /** The key dictionaries {@link #lastMapping} maps the combinations of. */
  private Object[] lastDictionaries;
  private int[] lastMapping;
  /** {@link GroupRuns}' slot per group id. */
  private int[] runScratch = new int[0];

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
    int[] groupIds = groupIds(batch, n, keys);
    ensure();
    GroupRuns runs = null;
    if (table.groups() <= GroupRuns.MAX_TABLE_GROUPS) {
      if (runScratch.length < table.groups()) {
        runScratch = new int[GroupRuns.MAX_TABLE_GROUPS];
        java.util.Arrays.fill(runScratch, -1);
      }
      runs = GroupRuns.of(groupIds, n, runScratch);
    }
    for (int a = 0; a < accumulators.length; a++) {
      int argument = specs.get(a).argument();
      Col input = argument < 0 ? null : batch.column(argument);
      if (runs == null) {
        accumulators[a].add(groupIds, input, n);
      } else {
        accumulators[a].add(runs, groupIds, input, n);
      }
    }
  }

  /** Folds the groups of {@code partial} (same keys and aggregates) into this one. */
  void merge(HashAggregate partial) {
    int groups = partial.groups();
    if (groups == 0) {
      return;
    }
    int[] mapping = groupIds(partial.keyBatch(), groups, KEY_BATCH_COLUMNS);
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

  /**
   * The group id of each row of {@code batch}, whose key k is its column {@code columns[k]} (the input's key columns,
   * or — for a partial's {@link #keyBatch} — {@link #KEY_BATCH_COLUMNS}).
   */
  private int[] groupIds(Batch batch, int n, int[] columns) {
    int[] groupIds = new int[n];
    if (keys.length == 0 || dictionaryGroupIds(batch, n, groupIds, columns)) {
      return groupIds;
    }
    if (keys.length == 1) {
      singleKeyGroupIds(batch.column(columns == KEY_BATCH_COLUMNS ? 0 : columns[0]), n, groupIds);
      return groupIds;
    }
    int width = keys.length + 1;
    long[] codes = new long[n * width];
    for (int k = 0; k < keys.length; k++) {
      Col col = batch.column(columns == KEY_BATCH_COLUMNS ? k : columns[k]);
      for (int i = 0; i < n; i++) {
        encode(k, col, i, codes, i * width);
      }
    }
    for (int i = 0; i < n; i++) {
      groupIds[i] = table.findOrAdd(codes, i * width);
    }
    return groupIds;
  }

  /** {@link #groupIds} of one key column: each row's (word, flags) straight into the table, no tuple array. */
  private void singleKeyGroupIds(Col col, int n, int[] groupIds) {
    if (col.kind != Kind.STRING && col.kind != Kind.DOUBLE && col.nulls == null && col.wide == null) {
      long[] values = col.longs;
      for (int i = 0; i < n; i++) {
        groupIds[i] = table.findOrAdd(values[i], 0);
      }
      return;
    }
    long[] tuple = new long[2];
    for (int i = 0; i < n; i++) {
      tuple[0] = 0;
      tuple[1] = 0;
      encode(0, col, i, tuple, 0);
      groupIds[i] = table.findOrAdd(tuple[0], tuple[1]);
    }
  }

  /**
   * Group ids without hashing when every key is a string column of a small dictionary (a cached column's codes):
   * the codes combine into an index into a table of group ids, filled on first sight of each combination and kept
   * while batches come from the same dictionaries (one fragment). False when a key is not such a column.
   */
  private boolean dictionaryGroupIds(Batch batch, int n, int[] groupIds, int[] columns) {
    Col[] cols = new Col[keys.length];
    int[][] codes = new int[keys.length][];
    int[] cards = new int[keys.length];
    long combinations = 1;
    for (int k = 0; k < keys.length; k++) {
      cols[k] = batch.column(columns == KEY_BATCH_COLUMNS ? k : columns[k]);
      if (!(cols[k].strings instanceof StringSource.Dictionary)) {
        return false;
      }
      StringSource.Dictionary dictionary = (StringSource.Dictionary) cols[k].strings;
      codes[k] = dictionary.codes;
      cards[k] = dictionary.values.length + 1;
      combinations *= cards[k];
      if (combinations > MAX_DICTIONARY_COMBINATIONS) {
        return false;
      }
    }
    int[] mapping = combinationGroups(cols, (int) combinations);
    int[] index = new int[n];
    for (int k = 0; k < keys.length; k++) {
      int card = cards[k];
      int[] code = codes[k];
      boolean[] nulls = cols[k].nulls;
      for (int i = 0; i < n; i++) {
        index[i] = index[i] * card + (nulls != null && nulls[i] ? card - 1 : code[i]);
      }
    }
    long[] tuple = new long[keys.length + 1];
    for (int i = 0; i < n; i++) {
      int g = mapping[index[i]];
      if (g < 0) {
        java.util.Arrays.fill(tuple, 0);
        for (int k = 0; k < keys.length; k++) {
          encode(k, cols[k], i, tuple, 0);
        }
        g = table.findOrAdd(tuple, 0);
        mapping[index[i]] = g;
      }
      groupIds[i] = g;
    }
    return true;
  }

  /** The combination-to-group table of these key dictionaries: the last one when they are the same. */
  private int[] combinationGroups(Col[] cols, int combinations) {
    boolean same = lastDictionaries != null && lastDictionaries.length == cols.length;
    for (int k = 0; same && k < cols.length; k++) {
      same = lastDictionaries[k] == ((StringSource.Dictionary) cols[k].strings).values;
    }
    if (!same) {
      lastDictionaries = new Object[cols.length];
      for (int k = 0; k < cols.length; k++) {
        lastDictionaries[k] = ((StringSource.Dictionary) cols[k].strings).values;
      }
      lastMapping = new int[combinations];
      java.util.Arrays.fill(lastMapping, -1);
    }
    return lastMapping;
  }

  /** Encodes key k of row i of {@code col} into the tuple at {@code codes[at..at+keys+1)}. */
  private void encode(int k, Col col, int i, long[] codes, int at) {
    int flags = keys.length;
    int shift = 2 * k;
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
