package dev.lake.query.vector;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The build side of one vectorized inner hash join, built once per execution before the probe scan starts and then
 * only read (by every fragment's worker at once): the build rows as columns, and an open-addressing table from each
 * distinct join key to the chain of build rows holding it, so a probe row matching a duplicated key yields one output
 * row per build row. Keys are encoded into long tuples: integers, dates and decimals as their unscaled longs, doubles
 * as their bits, strings and decimals beyond a long through a dictionary built here (a probe value absent from it
 * matches nothing). Rows with a NULL key are left out: NULL never equals anything. Integer keys whose spans fit 62
 * bits together are packed into one long first ({@link KeyPacking}); a single integer key of a narrow enough range is
 * not hashed at all but addressed directly by its offset in the range, and one of a range of at most
 * {@link #MAX_DIRECT_RANGE} values is hashed behind exact presence bits (one per value of the range).
 */
public final class JoinTable implements AutoCloseable {
  /** Memory charged per build row beyond its values: key words, chain link, slots. */
  private static final int BYTES_PER_ROW_OVERHEAD = 40;
  /** The most values a directly addressed range may span (256 MB of heads). */
  static final long MAX_DIRECT_RANGE = 1 << 26;

  private final Col[] columns;
  private final int rows;
  private final int width;
  private final long[] keyCodes;
  private final int[] slots;
  private final int mask;
  /** Per distinct key: its first build row; per build row: the next row of the same key (-1 ends a chain). */
  private final int[] first;
  private final int[] next;
  /** Whether some key of a hashed table repeats: a match then follows {@link #next}, else it is {@code first[g]}. */
  private final boolean chained;
  private final Map<Object, Long> dictionary;
  private final MemoryBudget budget;
  /**
   * For a single integer key (no dictionary values): the key of each slot's group beside {@link #slots}, so a probe
   * reads one array, and a bit filter (8 bits per key) that most probe rows of a selective join fail before touching
   * the bigger slot arrays; null otherwise.
   */
  private final long[] slotKeys;
  private final long[] bloom;
  private final int bloomMask;
  /**
   * For a single integer key of a hashed table whose values span at most {@link #MAX_DIRECT_RANGE} values: exact
   * presence bits, tested instead of {@link #bloom} — a probe row whose key the build side lacks costs a subtraction
   * and a bit test, no hashing; null otherwise.
   */
  private final PresenceBits presence;
  /** For a single integer key of a narrow enough range: the directly addressed table; null when hashed. */
  private final Direct direct;
  /** Integer keys packed into one long, which the table then holds as its single key; null for keys as they are. */
  private final KeyPacking packing;

  /**
   * A single integer key whose values span a range at most {@link DirectJoinTable#MAX_DIRECT_SPREAD} times the build
   * rows (a primary key, dense or filtered; TPC-H's single-column keys): instead of hashing, each key value's offset
   * in the range indexes {@code head} (its first build row + 1; 0 for none) and a bit of {@code present} (which a
   * probe row tests first: an exact filter of an eighth of a byte per value, small enough to stay in cache for a
   * selective join); {@code unique} when no key repeats: no chain to follow.
   */
  record Direct(int[] head, PresenceBits present, boolean unique) {}

  /**
   * A hashed table, or with {@code direct} a directly addressed one (then the hashed arrays are null and the
   * dictionary empty); {@code next} chains the rows of a repeated key either way.
   */
  JoinTable(Col[] columns, int rows, int width, long[] keyCodes, int[] slots, int[] first,
      int[] next, boolean chained, Map<Object, Long> dictionary, MemoryBudget budget, Direct direct,
      KeyPacking packing) {
    this.direct = direct;
    this.packing = packing;
    this.columns = columns;
    this.rows = rows;
    this.width = width;
    this.keyCodes = keyCodes;
    this.slots = slots;
    this.mask = slots == null ? 0 : slots.length - 1;
    this.first = first;
    this.next = next;
    this.chained = chained;
    this.dictionary = dictionary;
    this.budget = budget;
    if (slots != null && width == 2 && dictionary.isEmpty()) {
      slotKeys = new long[slots.length];
      for (int slot = 0; slot < slots.length; slot++) {
        if (slots[slot] >= 0) {
          slotKeys[slot] = keyCodes[2 * slots[slot]];
        }
      }
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (int slot = 0; slot < slots.length; slot++) {
        if (slots[slot] >= 0) {
          min = Math.min(min, slotKeys[slot]);
          max = Math.max(max, slotKeys[slot]);
        }
      }
      if (min <= max && Long.compareUnsigned(max - min, MAX_DIRECT_RANGE - 1) <= 0) {
        presence = new PresenceBits(min, max - min + 1);
        for (int slot = 0; slot < slots.length; slot++) {
          if (slots[slot] >= 0) {
            presence.add(slotKeys[slot]);
          }
        }
        bloom = null;
        bloomMask = 0;
        budget.chargeTo(charged(budget) + slots.length * 8L + presence.bytes());
      } else {
        presence = null;
        int bits = Integer.highestOneBit(Math.max(64, slots.length * 4 - 1)) << 1;
        bloom = new long[bits / 64];
        bloomMask = bits - 1;
        for (int slot = 0; slot < slots.length; slot++) {
          if (slots[slot] >= 0) {
            int bit = (int) (mix(slotKeys[slot]) >>> 32) & bloomMask;
            bloom[bit >>> 6] |= 1L << bit;
          }
        }
        budget.chargeTo(charged(budget) + slots.length * 8L + bloom.length * 8L);
      }
    } else {
      slotKeys = null;
      bloom = null;
      bloomMask = 0;
      presence = null;
    }
  }

  private static long charged(MemoryBudget budget) {
    return budget.charged();
  }

  /** The hash {@link #hash} gives the tuple (v, 0): one integer key without flags. */
  private static long mix(long v) {
    long h = (0x9E3779B97F4A7C15L ^ v) * 0xC2B2AE3D27D4EB4FL;
    h ^= h >>> 29;
    h *= 0xC2B2AE3D27D4EB4FL;
    return h ^ (h >>> 29);
  }

  /** Whether the key is addressed directly, not hashed (see {@link Direct}). */
  boolean addressedDirectly() {
    return direct != null;
  }

  /** Whether a hashed single integer key is tested against exact presence bits before it is hashed. */
  boolean filtersByPresence() {
    return presence != null;
  }

  /** Whether several integer keys are packed into one (see {@link KeyPacking}). */
  boolean packsKeys() {
    return packing != null;
  }

  /** Build rows, distinct keys are not counted. */
  public int rows() {
    return rows;
  }

  /** Build column {@code c} (every build row, in input order). */
  Col column(int c) {
    return columns[c];
  }

  int columnCount() {
    return columns.length;
  }

  @Override
  public void close() {
    budget.close();
  }

  /** The memory charged for this table (its rows, keys, chains and slots), whether or not the charge is released. */
  long bytes() {
    return budget.charged();
  }

  /**
   * The matches of {@code batch}'s rows, whose join keys are its columns {@code probeKeys} (in the order of this
   * table's keys): probe row and build row of each match, probe rows ascending.
   */
  Matches probe(Batch batch, int[] probeKeys) {
    int n = batch.size();
    Col[] keyColumns = new Col[probeKeys.length];
    for (int k = 0; k < probeKeys.length; k++) {
      keyColumns[k] = batch.column(probeKeys[k]);
    }
    if (packing != null) {
      keyColumns = new Col[] {packing.pack(keyColumns, n)};
    }
    if (direct != null) {
      return probeDirect(keyColumns[0], n);
    }
    if (keyColumns.length == 1) {
      Col key = keyColumns[0];
      if (key.kind == Kind.LONG && key.wide == null && slotKeys != null) {
        return probeLongs(key, n);
      }
    }
    long[] codes = new long[n * width];
    boolean[] skip = new boolean[n];
    for (int k = 0; k < keyColumns.length; k++) {
      encodeProbe(k, keyColumns[k], codes, skip, n);
    }
    MatchList matches = new MatchList(n);
    for (int i = 0; i < n; i++) {
      if (skip[i]) {
        continue;
      }
      int g = find(codes, i * width);
      if (g < 0) {
        continue;
      }
      addMatches(matches, i, g);
    }
    return matches.done();
  }

  /** {@link #probe} for one integer key (the common case: TPC-H's keys), without the tuple encoding. */
  private Matches probeLongs(Col key, int n) {
    if (presence != null) {
      return probePresent(key, n);
    }
    MatchList matches = new MatchList(n);
    long[] values = key.longs;
    boolean[] nulls = key.nulls;
    long[] filter = bloom;
    for (int i = 0; i < n; i++) {
      if (nulls != null && nulls[i]) {
        continue;
      }
      long v = values[i];
      long h = mix(v);
      int bit = (int) (h >>> 32) & bloomMask;
      if ((filter[bit >>> 6] & (1L << bit)) == 0) {
        continue;
      }
      int g = groupOf(v, (int) h & mask);
      if (g >= 0) {
        addMatches(matches, i, g);
      }
    }
    return matches.done();
  }

  /** Probe row {@code i} meets the build rows of group {@code g} of a hashed table. */
  private void addMatches(MatchList matches, int i, int g) {
    if (chained) {
      matches.addChain(i, first[g], next);
    } else {
      matches.add(i, first[g]);
    }
  }

  /** The group of single integer key {@code v} of a hashed table, probing from {@code slot} on; -1 when absent. */
  private int groupOf(long v, int slot) {
    long[] slotted = slotKeys;
    while (true) {
      int g = slots[slot];
      if (g < 0 || slotted[slot] == v) {
        return g;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** {@link #probeLongs} with the {@link #presence} bits: only a key the build side holds is looked up. */
  private Matches probePresent(Col key, int n) {
    MatchList matches = new MatchList(n);
    long[] values = key.longs;
    boolean[] nulls = key.nulls;
    PresenceBits present = presence;
    for (int i = 0; i < n; i++) {
      long v = values[i];
      if (!present.contains(v) || nulls != null && nulls[i]) {
        continue;
      }
      int g = groupOf(v, (int) mix(v) & mask);
      if (g >= 0) {
        addMatches(matches, i, g);
      }
    }
    return matches.done();
  }

  /**
   * {@link #probe} of a directly addressed table: a value outside the range or without its bit matches nothing, a
   * NULL or a value beyond a long (no build key is one) neither.
   */
  private Matches probeDirect(Col key, int n) {
    MatchList matches = new MatchList(n);
    long[] values = key.longs;
    boolean[] nulls = key.nulls;
    BigDecimal[] wide = key.wide;
    PresenceBits present = direct.present();
    int[] head = direct.head();
    boolean unique = direct.unique();
    for (int i = 0; i < n; i++) {
      if (!present.contains(values[i]) || nulls != null && nulls[i] || wide != null && wide[i] != null) {
        continue;
      }
      int row = head[present.offset(values[i])] - 1;
      if (unique) {
        matches.add(i, row);
      } else {
        matches.addChain(i, row, next);
      }
    }
    return matches.done();
  }

  /**
   * Narrows {@code positions[0..count)}, rows of {@code batch}, in place to those whose key (its columns
   * {@code probeKeys}) may have a build row, and returns how many are left ({@link KeyPrefilter}): exactly for a
   * directly addressed key or one with presence bits, a superset through the bit filter of a hashed integer key; a
   * NULL key (or a packed key outside the build's spans) has none, a value beyond a long is kept. -1 when the table
   * has no such test (keys through the dictionary or as tuples).
   */
  int mayMatch(Batch batch, int[] probeKeys, int[] positions, int count) {
    PresenceBits present = direct != null ? direct.present() : presence;
    if (present == null && bloom == null || packing == null && probeKeys.length != 1) {
      return -1;
    }
    Col key;
    if (packing != null) {
      Col[] keyColumns = new Col[probeKeys.length];
      for (int k = 0; k < probeKeys.length; k++) {
        keyColumns[k] = batch.column(probeKeys[k]);
      }
      key = packing.pack(keyColumns, batch.size());
    } else {
      key = batch.column(probeKeys[0]);
    }
    if (key.kind != Kind.LONG) {
      return -1;
    }
    long[] values = key.longs;
    boolean[] nulls = key.nulls;
    BigDecimal[] wide = key.wide;
    int kept = 0;
    for (int j = 0; j < count; j++) {
      int i = positions[j];
      boolean may;
      if (nulls != null && nulls[i]) {
        may = false;
      } else if (wide != null && wide[i] != null) {
        may = true;
      } else if (present != null) {
        may = present.contains(values[i]);
      } else {
        int bit = (int) (mix(values[i]) >>> 32) & bloomMask;
        may = (bloom[bit >>> 6] & (1L << bit)) != 0;
      }
      if (may) {
        positions[kept++] = i;
      }
    }
    return kept;
  }

  /** Matching row pairs: {@code probeRows[i]} of the probe batch joins {@code buildRows[i]} of this table. */
  record Matches(int[] probeRows, int[] buildRows, int count) {}

  private void encodeProbe(int k, Col col, long[] codes, boolean[] skip, int n) {
    KeyCodes.encode(k, width - 1, col, codes, skip, n, dictionary, false);
  }

  private int find(long[] codes, int offset) {
    int slot = (int) KeyCodes.hash(codes, offset, width) & mask;
    while (true) {
      int g = slots[slot];
      if (g < 0) {
        return -1;
      }
      if (Arrays.equals(keyCodes, g * width, g * width + width, codes, offset, offset + width)) {
        return g;
      }
      slot = (slot + 1) & mask;
    }
  }

  /**
   * Builds a table over build columns (all of the same length), keyed by the columns {@code keys}; the build side's
   * memory (values, keys, chains) is charged to {@code budget} as the table is built.
   */
  static JoinTable build(Col[] columns, int rows, int[] keys, MemoryBudget budget) {
    budget.chargeTo(estimatedBytes(columns, rows));
    KeyPacking packing = KeyPacking.of(columns, keys, rows);
    Col[] keyColumns = new Col[keys.length];
    for (int k = 0; k < keys.length; k++) {
      keyColumns[k] = columns[keys[k]];
    }
    if (packing != null) {
      keyColumns = new Col[] {packing.pack(keyColumns, rows)};
    }
    int width = keyColumns.length + 1;
    if (keyColumns.length == 1) {
      JoinTable direct = DirectJoinTable.build(keyColumns[0], columns, rows, packing, budget);
      if (direct != null) {
        return direct;
      }
    }
    Map<Object, Long> dictionary = new HashMap<>();
    long[] codes = new long[rows * width];
    boolean[] skip = new boolean[rows];
    for (int k = 0; k < keyColumns.length; k++) {
      KeyCodes.encode(k, keyColumns.length, keyColumns[k], codes, skip, rows, dictionary, true);
    }
    int capacity = Integer.highestOneBit(Math.max(16, rows) * 2 - 1) << 1;
    int[] slots = new int[capacity];
    Arrays.fill(slots, -1);
    int mask = capacity - 1;
    long[] keyCodes = new long[Math.max(1, rows) * width];
    int[] first = new int[Math.max(1, rows)];
    int[] next = new int[Math.max(1, rows)];
    int[] last = new int[Math.max(1, rows)];
    int groups = 0;
    boolean chained = false;
    for (int i = 0; i < rows; i++) {
      next[i] = -1;
      if (skip[i]) {
        continue;
      }
      int offset = i * width;
      int slot = (int) KeyCodes.hash(codes, offset, width) & mask;
      while (true) {
        int g = slots[slot];
        if (g < 0) {
          g = groups++;
          System.arraycopy(codes, offset, keyCodes, g * width, width);
          first[g] = i;
          last[g] = i;
          slots[slot] = g;
          break;
        }
        if (Arrays.equals(keyCodes, g * width, g * width + width, codes, offset, offset + width)) {
          // Appended at the chain's end: matches come out in build order.
          next[last[g]] = i;
          chained = true;
          last[g] = i;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    return new JoinTable(columns, rows, width, keyCodes, slots, first, next, chained, dictionary, budget, null,
        packing);
  }

  private static long estimatedBytes(Col[] columns, int rows) {
    long bytes = (long) rows * BYTES_PER_ROW_OVERHEAD;
    for (Col col : columns) {
      bytes += (long) rows * (col.kind == Kind.STRING ? 48 : 9);
    }
    return bytes;
  }
}
