package dev.lake.query.vector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dense ids for the string (and out-of-long decimal) values of a group key column, so keys hash as longs. Strings
 * are looked up by hash and compared in place in the Arrow buffer; a new one is copied once.
 */
final class ValueDictionary {
  private final Map<Integer, int[]> byHash = new HashMap<>();
  private final List<byte[]> strings = new ArrayList<>();
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
    int[] ids = byHash.get(hash);
    if (ids != null) {
      for (int id : ids) {
        if (source.equalTo(i, strings.get(id))) {
          return id;
        }
      }
    }
    int id = strings.size();
    strings.add(source.bytes(i));
    int[] grown = ids == null ? new int[] {id} : Arrays.copyOf(ids, ids.length + 1);
    grown[grown.length - 1] = id;
    byHash.put(hash, grown);
    return id;
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
