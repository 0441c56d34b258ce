package dev.lake.query;

import com.github.benmanes.caffeine.cache.Cache;
import dev.lake.registry.RegistryUnavailableException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * A Caffeine cache whose loads are coalesced: while one caller loads a key, every other caller of that key waits for
 * that load and shares its outcome, value or exception. A failed load is not cached, so the next caller tries
 * again. Loads run on the caller's thread (never inside the cache's own locks, so a slow registry blocks no other
 * key). Thread-safe.
 */
final class CoalescingCache<K, V> {
  private final Cache<K, V> cache;
  private final ConcurrentMap<K, CompletableFuture<V>> loading = new ConcurrentHashMap<>();

  CoalescingCache(Cache<K, V> cache) {
    this.cache = Objects.requireNonNull(cache, "cache");
  }

  Optional<V> cached(K key) {
    return Optional.ofNullable(cache.getIfPresent(key));
  }

  /** The cached value, or the one load of it that concurrent callers share. */
  V get(K key, Supplier<V> load) {
    V value = cache.getIfPresent(key);
    if (value != null) {
      return value;
    }
    CompletableFuture<V> mine = new CompletableFuture<>();
    CompletableFuture<V> running = loading.putIfAbsent(key, mine);
    if (running != null) {
      return join(running);
    }
    try {
      // A load that finished between the look-up and now has cached its value before it stopped loading.
      value = cache.getIfPresent(key);
      if (value == null) {
        value = Objects.requireNonNull(load.get(), "loaded value");
        cache.put(key, value);
      }
      mine.complete(value);
      return value;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      loading.remove(key, mine);
    }
  }

  void invalidate(K key) {
    cache.invalidate(key);
  }

  void removeIf(BiPredicate<K, V> condition) {
    cache.asMap().entrySet().removeIf(entry -> condition.test(entry.getKey(), entry.getValue()));
  }

  private static <V> V join(CompletableFuture<V> future) {
    try {
      return future.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IllegalStateException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryUnavailableException("interrupted while waiting for the registry: retry", e);
    }
  }
}
