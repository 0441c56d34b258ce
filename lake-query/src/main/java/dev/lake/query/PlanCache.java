package dev.lake.query;

import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * Validated statements by (statement text, the pins their table references resolved to): a repeated statement skips
 * parsing and validation, and a statement is validated again as soon as a table it reads moves to another
 * registration (generation or version), because the key then differs. Beside it, the table references each
 * statement text looked up, so a prepare can compute the key without parsing. Bounded (least recently/frequently
 * used entries leave); a maximum size of 0 turns caching off. Thread-safe.
 */
final class PlanCache {
  private final Cache<Key, CachedStatement> statements;
  private final Cache<String, List<TableReference>> references;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder busy = new LongAdder();

  PlanCache(int maximumSize) {
    if (maximumSize < 0) {
      throw new IllegalArgumentException("the plan cache size must be >= 0, was " + maximumSize);
    }
    this.statements = maximumSize == 0 ? null
        : Caffeine.newBuilder().maximumSize(maximumSize).executor(Runnable::run).build();
    this.references = maximumSize == 0 ? null
        : Caffeine.newBuilder().maximumSize(maximumSize).executor(Runnable::run).build();
  }

  /** The table references {@code sql} looked up when it was last validated. */
  Optional<List<TableReference>> references(String sql) {
    return references == null ? Optional.empty() : Optional.ofNullable(references.getIfPresent(sql));
  }

  /** The statement validated for exactly these pins (by reference key); counts a hit or a miss. */
  Optional<CachedStatement> get(String sql, Map<String, TablePin> pins) {
    CachedStatement statement = statements == null ? null : statements.getIfPresent(new Key(sql, pins));
    (statement == null ? misses : hits).increment();
    return Optional.ofNullable(statement);
  }

  /** Counts a miss that needed no look-up (the statement's references were not known). */
  void missed() {
    misses.increment();
  }

  void busy() {
    busy.increment();
  }

  void put(String sql, CachedStatement statement) {
    if (statements == null) {
      return;
    }
    statements.put(new Key(sql, statement.pins()), statement);
    references.put(sql, statement.references());
  }

  PlanCacheStats stats() {
    return new PlanCacheStats(hits.sum(), misses.sum(), busy.sum(),
        statements == null ? 0 : statements.estimatedSize());
  }

  private record Key(String sql, Map<String, TablePin> pins) {
    Key {
      Objects.requireNonNull(sql, "sql");
      pins = Map.copyOf(pins);
    }
  }
}
