package dev.lake.query.vector;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * When a scan that found its columns not cached loads them ({@link VectorExecutor#scanRows}): after the same columns
 * of the same version were scanned {@link #LOAD_AFTER} times, one scan at a time, while the others go on reading
 * Lance — a table repeated point queries read becomes cached, a scan now and then does not. Thread-safe.
 */
final class RepeatedScans {
  /** The scans of the same columns of one version that read Lance before one loads them. */
  static final int LOAD_AFTER = 8;

  /** How often a scan found the columns of a version not cached, by version and columns. */
  private final Cache<String, AtomicInteger> uncached = Caffeine.newBuilder().maximumSize(4_096).build();
  /** The keys whose columns a scan is loading now. */
  private final Set<String> loading = ConcurrentHashMap.newKeySet();

  /**
   * Counts one uncached scan of {@code key} (version and columns); true when this scan is to load them — then it
   * calls {@link #loaded} whatever happens.
   */
  boolean load(String key) {
    return uncached.get(key, k -> new AtomicInteger()).incrementAndGet() >= LOAD_AFTER && loading.add(key);
  }

  /** The scan {@link #load} chose has ended: the count starts again. */
  void loaded(String key) {
    AtomicInteger seen = uncached.getIfPresent(key);
    if (seen != null) {
      seen.set(0);
    }
    loading.remove(key);
  }
}
