package dev.lake.engine;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntToLongFunction;

/**
 * The fragments of one table version, as its snapshots report them ({@link LanceTableSnapshot#fragmentIds},
 * {@code fragmentKey}, {@code fragmentRows}): ids in the manifest's order and the cache key of each, read once from
 * the manifest, and row counts (deletions applied) counted on first use — a version's fragments never change, so a
 * kept dataset shares one of these among all its snapshots instead of asking Lance on every call of every query.
 * Thread-safe.
 */
final class VersionFragments {
  private final List<Integer> ids;
  private final Map<Integer, String> keys;
  private final Map<Integer, Long> rows = new ConcurrentHashMap<>();

  VersionFragments(List<Integer> ids, Map<Integer, String> keys) {
    this.ids = List.copyOf(ids);
    this.keys = Map.copyOf(keys);
  }

  List<Integer> ids() {
    return ids;
  }

  String key(int fragment) {
    return keys.get(fragment);
  }

  /** @throws IllegalArgumentException when the version has no such fragment */
  void check(int fragment, long version) {
    if (!keys.containsKey(fragment)) {
      throw new IllegalArgumentException("version " + version + " has no fragment " + fragment);
    }
  }

  /** The fragment's rows, counted by {@code count} the first time they are asked for. */
  long rows(int fragment, IntToLongFunction count) {
    Long known = rows.get(fragment);
    if (known == null) {
      known = count.applyAsLong(fragment);
      rows.put(fragment, known);
    }
    return known;
  }
}
