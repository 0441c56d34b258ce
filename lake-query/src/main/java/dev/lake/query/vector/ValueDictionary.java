package dev.lake.query.vector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dense ids for the string (and out-of-long decimal) values of a group key column, so keys hash as longs. Strings
 * are looked up by hash in an open-addressed table of ids (no boxing, no node per string: TPC-H Q10 groups by five
 * nearly unique strings) and compared in place in the Arrow buffer; a new one is copied once.
 */
final class ValueDictionary {
  private static final int INITIAL_SLOTS = 64;

  private final List<byte[]> strings = new ArrayList<>();
  /** Each string id's hash, by id. */
  private int[] hashes = new int[INITIAL_SLOTS / 2];
  /** Open-addressed: a string's id + 1, 0 for an empty slot; at most half full. */
  private int[] slots = new int[INITIAL_SLOTS];
  private final Map<Object, Integer> objectIds = new HashMap<>();
  private final List<Object> objects = new ArrayList<>();
  /** Direct-mapped cache of recent ids by hash: low-cardinality keys skip the map. */
  private final int[] recent = new int[256];

  ValueDictionary() {
    Arrays.fill(recent, -1);
  }

  int stringId(StringSource source, int i) {
    int hash = source.hash(i);
    int cached = recent[hash & 255];
    if (cached >= 0 && source.equalTo(i, strings.get(cached))) {
      return cached;
    }
    int id = lookup(source, i, hash);
    recent[hash & 255] = id;
    return id;
  }

  private int lookup(StringSource source, int i, int hash) {
    int mask = slots.length - 1;
    int slot = spread(hash) & mask;
    while (slots[slot] != 0) {
      int id = slots[slot] - 1;
      if (hashes[id] == hash && source.equalTo(i, strings.get(id))) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
    int id = strings.size();
    strings.add(source.bytes(i));
    if (id == hashes.length) {
      hashes = Arrays.copyOf(hashes, id * 2);
    }
    hashes[id] = hash;
    slots[slot] = id + 1;
    if (2 * (id + 1) > slots.length) {
      grow();
    }
    return id;
  }

  private void grow() {
    int[] grown = new int[slots.length * 2];
    int mask = grown.length - 1;
    for (int id = 0; id < strings.size(); id++) {
      int slot = spread(hashes[id]) & mask;
      while (grown[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      grown[slot] = id + 1;
    }
    slots = grown;
  }

  /** The string hash's bits mixed, so that the low bits a slot takes depend on all of them. */
  private static int spread(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  byte[] string(int id) {
    return strings.get(id);
  }

  int objectId(Object value) {
    return objectIds.computeIfAbsent(value, v -> {
      objects.add(v);
      return objects.size() - 1;
    });
  }

  Object object(int id) {
    return objects.get(id);
  }
}
