package dev.lake.query.vector;

import java.util.Arrays;

/**
 * Open-addressing hash table from fixed-width tuples of longs (encoded group keys) to dense group ids 0, 1, 2, ...
 * in order of first appearance. Grows by doubling; the caller is told how many groups exist to charge memory.
 *
 * <p>A table of one key word and its flags word (width 2: a single group key, the common case) keeps each slot's key
 * beside its group id ({@link #findOrAdd(long, long)}): a probe then reads one cache line, where a wider table reads
 * its slot and then the group's key words elsewhere (measured on TPC-H Q13's 100,000 customer keys at SF 1: the key
 * comparison's cache misses were a third of the aggregate's time).
 */
final class KeyTable {
  private static final long SEED = 0x9E3779B97F4A7C15L;
  private static final long MULTIPLIER = 0xC2B2AE3D27D4EB4FL;
  private static final long EMPTY = -1;

  private final int width;
  /** Each group's key words, {@code width} per group, in group order. */
  private long[] keys;
  /** Wider tables: the group id in each slot, -1 when empty. */
  private int[] slots;
  /**
   * Width-2 tables: two words per slot, the key word and then {@code flags << 32 | group id} ({@link #EMPTY} when
   * the slot is empty; flags are the two bits per key of the caller's encoding, so the word is never negative).
   */
  private long[] pairs;
  private int mask;
  private int groups;

  KeyTable(int width) {
    this.width = width;
    this.keys = new long[16 * width];
    if (width == 2) {
      this.pairs = new long[2 * 32];
      for (int s = 1; s < pairs.length; s += 2) {
        pairs[s] = EMPTY;
      }
      this.mask = 31;
    } else {
      this.slots = new int[32];
      Arrays.fill(slots, -1);
      this.mask = slots.length - 1;
    }
  }

  int groups() {
    return groups;
  }

  int width() {
    return width;
  }

  /** Word {@code w} of group {@code g}'s key. */
  long key(int g, int w) {
    return keys[g * width + w];
  }

  /** The group id of the tuple at {@code codes[offset..offset+width)}, added when new. */
  int findOrAdd(long[] codes, int offset) {
    if (width == 2) {
      return findOrAdd(codes[offset], codes[offset + 1]);
    }
    int slot = (int) hash(codes, offset) & mask;
    while (true) {
      int g = slots[slot];
      if (g < 0) {
        return add(codes, offset, slot);
      }
      if (equal(g, codes, offset)) {
        return g;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** The group id of the width-2 tuple {@code (word, flags)}, added when new; {@code flags} below 2^31. */
  int findOrAdd(long word, long flags) {
    int slot = (int) pairHash(word, flags) & mask;
    while (true) {
      long entry = pairs[2 * slot + 1];
      if (entry == EMPTY) {
        return addPair(word, flags, slot);
      }
      if (pairs[2 * slot] == word && entry >>> 32 == flags) {
        return (int) entry;
      }
      slot = (slot + 1) & mask;
    }
  }

  private long hash(long[] codes, int offset) {
    long h = SEED;
    for (int w = 0; w < width; w++) {
      h = (h ^ codes[offset + w]) * MULTIPLIER;
      h ^= h >>> 29;
    }
    return h;
  }

  private static long pairHash(long word, long flags) {
    long h = (SEED ^ word) * MULTIPLIER;
    h ^= h >>> 29;
    h = (h ^ flags) * MULTIPLIER;
    return h ^ (h >>> 29);
  }

  private boolean equal(int g, long[] codes, int offset) {
    int base = g * width;
    for (int w = 0; w < width; w++) {
      if (keys[base + w] != codes[offset + w]) {
        return false;
      }
    }
    return true;
  }

  private int newGroup() {
    int g = groups++;
    if ((g + 1) * width > keys.length) {
      keys = Arrays.copyOf(keys, keys.length * 2);
    }
    return g;
  }

  private int add(long[] codes, int offset, int slot) {
    int g = newGroup();
    System.arraycopy(codes, offset, keys, g * width, width);
    slots[slot] = g;
    if (groups * 2 > slots.length) {
      rehash();
    }
    return g;
  }

  private int addPair(long word, long flags, int slot) {
    int g = newGroup();
    keys[2 * g] = word;
    keys[2 * g + 1] = flags;
    pairs[2 * slot] = word;
    pairs[2 * slot + 1] = flags << 32 | g;
    if (groups * 2 > mask + 1) {
      rehashPairs();
    }
    return g;
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    Arrays.fill(slots, -1);
    mask = slots.length - 1;
    for (int g = 0; g < groups; g++) {
      int slot = (int) hash(keys, g * width) & mask;
      while (slots[slot] >= 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = g;
    }
  }

  private void rehashPairs() {
    int capacity = 2 * (mask + 1);
    pairs = new long[2 * capacity];
    for (int s = 1; s < pairs.length; s += 2) {
      pairs[s] = EMPTY;
    }
    mask = capacity - 1;
    for (int g = 0; g < groups; g++) {
      long word = keys[2 * g];
      long flags = keys[2 * g + 1];
      int slot = (int) pairHash(word, flags) & mask;
      while (pairs[2 * slot + 1] != EMPTY) {
        slot = (slot + 1) & mask;
      }
      pairs[2 * slot] = word;
      pairs[2 * slot + 1] = flags << 32 | g;
    }
  }
}
