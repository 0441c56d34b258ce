package dev.lake.query.vector;

import java.util.Arrays;

/**
 * Open-addressing hash table from fixed-width tuples of longs (encoded group keys) to dense group ids 0, 1, 2, ...
 * in order of first appearance. Grows by doubling; the caller is told how many groups exist to charge memory.
 */
final class KeyTable {
  private final int width;
  private long[] keys;
  private int[] slots;
  private int mask;
  private int groups;

  KeyTable(int width) {
    this.width = width;
    this.keys = new long[16 * width];
    this.slots = new int[32];
    Arrays.fill(slots, -1);
    this.mask = slots.length - 1;
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
    long h = 0x9E3779B97F4A7C15L;
    for (int w = 0; w < width; w++) {
      h = (h ^ codes[offset + w]) * 0xC2B2AE3D27D4EB4FL;
      h ^= h >>> 29;
    }
    int slot = (int) h & mask;
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

  private boolean equal(int g, long[] codes, int offset) {
    int base = g * width;
    for (int w = 0; w < width; w++) {
      if (keys[base + w] != codes[offset + w]) {
        return false;
      }
    }
    return true;
  }

  private int add(long[] codes, int offset, int slot) {
    int g = groups++;
    if ((g + 1) * width > keys.length) {
      keys = Arrays.copyOf(keys, keys.length * 2);
    }
    System.arraycopy(codes, offset, keys, g * width, width);
    slots[slot] = g;
    if (groups * 2 > slots.length) {
      rehash();
    }
    return g;
  }

  private void rehash() {
    int[] old = slots;
    slots = new int[old.length * 2];
    Arrays.fill(slots, -1);
    mask = slots.length - 1;
    for (int g = 0; g < groups; g++) {
      long h = 0x9E3779B97F4A7C15L;
      for (int w = 0; w < width; w++) {
        h = (h ^ keys[g * width + w]) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
      }
      int slot = (int) h & mask;
      while (slots[slot] >= 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = g;
    }
  }
}
