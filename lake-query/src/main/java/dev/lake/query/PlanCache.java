package dev.lake.query;

import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import dev.lake.query.sql.LiteralParameters;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * Validated statements by (statement text, the pins their table references resolved to): a repeated statement skips
 * parsing and validation, and a statement is validated again as soon as a table it reads moves to another
 * registration (generation or version), because the key then differs. Beside it, the table references each
 * statement text looked up, so a prepare can compute the key without parsing. Bounded by the bytes its entries are
 * estimated to retain ({@link #weight}, {@code query.plan-cache-size}, docs/config.md), not by their count: a
 * statement of 20,000 literals retains megabytes where {@code SELECT 1} retains kilobytes. Least recently/frequently
 * used entries leave; an entry estimated above the whole budget is not kept; a budget of 0 turns caching off.
 * Thread-safe.
 */
final class PlanCache {
  private final Cache<Key, CachedStatement> statements;
  private final Cache<String, List<TableReference>> references;
  /**
   * What {@link LiteralParameters#of} made of each recent statement text (a parse of the whole text): the prepare and
   * the execution of one statement, and every repetition of it, ask again.
   */
  private final Cache<String, Optional<LiteralParameters.Parameterized>> parameterized;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder busy = new LongAdder();
  private final LongAdder bound = new LongAdder();
  private final LongAdder reused = new LongAdder();
  /** The key each statement text was last cached under: where a statement is found for pins it was not cached for. */
  private final Cache<String, Key> newest;

  /**
   * Heap a validated statement retains per character of its text, beyond the text itself: its parse tree, its
   * validated relational tree and the planner that keeps them (measured: a 20,000-literal statement of ~140,000
   * characters retained 6.3 MB, about 45 bytes per character; rounded up).
   */
  static final long BYTES_PER_CHAR = 64;
  /** Heap every cached statement retains whatever its length (its planner, cluster, schemas and maps). */
  static final long BYTES_PER_STATEMENT = 32 * 1024;
  /** The share of the budget the reference index (statement text to table references) may take. */
  private static final int REFERENCE_SHARE = 8;

  private final long maximumBytes;

  PlanCache(long maximumBytes) {
    if (maximumBytes < 0) {
      throw new IllegalArgumentException("the plan cache size must be >= 0 bytes, was " + maximumBytes);
    }
    this.maximumBytes = maximumBytes;
    this.statements = maximumBytes == 0 ? null
        : Caffeine.newBuilder().maximumWeight(maximumBytes)
            .<Key, CachedStatement>weigher((key, statement) -> weight(key.sql()))
            .executor(Runnable::run).build();
    this.newest = maximumBytes == 0 ? null
        : Caffeine.newBuilder().maximumWeight(Math.max(1, maximumBytes / REFERENCE_SHARE))
            .<String, Key>weigher((sql, key) -> clamp(2L * sql.length() + 256L * (1 + key.pins().size())))
            .executor(Runnable::run).build();
    this.references = maximumBytes == 0 ? null
        : Caffeine.newBuilder().maximumWeight(Math.max(1, maximumBytes / REFERENCE_SHARE))
            .<String, List<TableReference>>weigher((sql, refs) -> clamp(2L * sql.length() + 256L * (1 + refs.size())))
            .executor(Runnable::run).build();
    this.parameterized = maximumBytes == 0 ? null
        : Caffeine.newBuilder().maximumWeight(Math.max(1, maximumBytes / REFERENCE_SHARE))
            .<String, Optional<LiteralParameters.Parameterized>>weigher((sql, found) -> clamp(4L * sql.length()
                + 256L * (1 + found.map(p -> p.literals().size()).orElse(0))))
            .executor(Runnable::run).build();
  }

  /** {@link LiteralParameters#of}{@code (sql)}, parsed once per text while the text stays cached. */
  Optional<LiteralParameters.Parameterized> parameterized(String sql) {
    return parameterized == null ? LiteralParameters.of(sql) : parameterized.get(sql, LiteralParameters::of);
  }

  /** The bytes a cached statement of this text is estimated to retain (text, trees, planner). */
  static int weight(String sql) {
    return clamp(BYTES_PER_STATEMENT + (2 + BYTES_PER_CHAR) * (long) sql.length());
  }

  private static int clamp(long bytes) {
    return (int) Math.min(Integer.MAX_VALUE, bytes);
  }

  /** The estimated bytes the cached statements retain now (at most the budget). */
  long weightedBytes() {
    if (statements == null) {
      return 0;
    }
    statements.cleanUp();
    return statements.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
  }

  long maximumBytes() {
    return maximumBytes;
  }

  /** The table references {@code sql} looked up when it was last validated. */
  Optional<List<TableReference>> references(String sql) {
    return references == null ? Optional.empty() : Optional.ofNullable(references.getIfPresent(sql));
  }

  /** The statement validated for exactly these pins (by reference key); counts a hit or a miss. */
  Optional<CachedStatement> get(String sql, Map<String, TablePin> pins) {
    return get(sql, pins, statement -> false, false);
  }

  /**
   * The statement validated for exactly these pins, else the one cached last for {@code sql} (validated for other
   * pins) if {@code reusable} accepts it for these — a plan made before a small append runs on the appended versions
   * (docs/performance.md, "Plans across appends"). With {@code keep}, a reused statement is also cached under these
   * pins (the execution checked it); a prepare only answers from it. Counts a hit (and a reuse) or a miss.
   */
  Optional<CachedStatement> get(String sql, Map<String, TablePin> pins, Predicate<CachedStatement> reusable,
      boolean keep) {
    if (statements == null) {
      misses.increment();
      return Optional.empty();
    }
    CachedStatement statement = statements.getIfPresent(new Key(sql, pins));
    if (statement == null) {
      Key last = newest.getIfPresent(sql);
      CachedStatement other = last == null ? null : statements.getIfPresent(last);
      if (other != null && reusable.test(other)) {
        statement = other;
        reused.increment();
        if (keep) {
          Key key = new Key(sql, pins);
          statements.put(key, other);
          newest.put(sql, key);
        }
      }
    }
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

  /** Counts an execution that bound its values into a statement planned once. */
  void bound() {
    bound.increment();
  }

  void put(String sql, CachedStatement statement) {
    if (statements == null) {
      return;
    }
    Key key = new Key(sql, statement.pins());
    statements.put(key, statement);
    references.put(sql, statement.references());
    newest.put(sql, key);
  }

  PlanCacheStats stats() {
    return new PlanCacheStats(hits.sum(), misses.sum(), busy.sum(),
        statements == null ? 0 : statements.estimatedSize(), bound.sum(), reused.sum());
  }

  private record Key(String sql, Map<String, TablePin> pins) {
    Key {
      Objects.requireNonNull(sql, "sql");
      pins = Map.copyOf(pins);
    }
  }
}
