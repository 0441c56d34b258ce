package dev.lake.query;

import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.query.spill.SpillOptions;
import java.time.Clock;
import java.util.Objects;

/**
 * Settings of the read path.
 *
 * @param batchSize rows per result batch (and per Lance scan batch), 1 to 1,048,576
 * @param memoryLimitBytes the most Arrow memory one executing statement may hold on the Java side (its child
 *     allocator); Lance's native working memory is not counted (docs/dependencies.md)
 * @param clock wall time for CURRENT_TIMESTAMP and friends (UTC)
 * @param planCacheSize the most bytes the plan cache's statements are estimated to retain
 *     ({@code query.plan-cache-size}, default 64 MB; 0 turns the cache off)
 * @param subtreePushDown whether subtrees are pushed down whole — into Lance's SQL engine or lake's vectorized
 *     executor, as {@code executor} says (default true; off is {@code query.executor=calcite}: Calcite computes every
 *     operator over Lance scans — for comparisons and diagnosis)
 * @param executor which engine runs a pushed-down single-table subtree ({@code query.executor}: auto — the
 *     planner's rule —, vectorized, lance-sql or calcite; default auto)
 * @param spill where operators past the memory limit spill and how much ({@code query.spill-dir},
 *     {@code query.spill-limit}, {@code query.node-spill-limit})
 * @param autoParameterize whether an un-prepared statement's comparison literals are turned into parameters so that
 *     statements differing only in them share one cached plan ({@code query.auto-parameterize}, default true;
 *     {@link dev.lake.query.sql.LiteralParameters})
 * @param vectorizedMaxGroups under {@code executor} auto, the most estimated groups of a single-table aggregate the
 *     vectorized executor takes; more go to Lance's SQL engine ({@code query.vectorized-max-groups}, default
 *     {@link #DEFAULT_VECTORIZED_MAX_GROUPS}; {@link dev.lake.query.plan.EngineChoice})
 */
public record QueryOptions(int batchSize, long memoryLimitBytes, Clock clock, long planCacheSize,
    boolean subtreePushDown, SubtreeExecutor executor, dev.lake.query.sql.StatementLimits statementLimits,
    SpillOptions spill, boolean autoParameterize, long vectorizedMaxGroups) {
  public static final int DEFAULT_BATCH_SIZE = 65_536;
  /**
   * The default of {@code query.vectorized-max-groups}: measured on TPC-H SF 1 (docs/performance.md, "Many groups"),
   * the vectorized hash aggregate beats Lance's SQL engine up to Q18's 1.5 million order keys.
   */
  public static final long DEFAULT_VECTORIZED_MAX_GROUPS = 2_000_000;
  public static final long DEFAULT_PLAN_CACHE_SIZE = 64L << 20;
  private static final int MAX_BATCH_SIZE = 1 << 20;

  public QueryOptions {
    if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw new IllegalArgumentException("batchSize must be between 1 and " + MAX_BATCH_SIZE + ", was " + batchSize);
    }
    if (memoryLimitBytes < 1) {
      throw new IllegalArgumentException("memoryLimitBytes must be positive, was " + memoryLimitBytes);
    }
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(statementLimits, "statementLimits");
    Objects.requireNonNull(spill, "spill");
    if (vectorizedMaxGroups < 0) {
      throw new IllegalArgumentException("vectorizedMaxGroups must be >= 0, was " + vectorizedMaxGroups);
    }
    if (planCacheSize < 0) {
      throw new IllegalArgumentException("planCacheSize must be >= 0 (0 turns the plan cache off), was "
          + planCacheSize);
    }
  }

  /** These settings with the default group limit of the vectorized executor's aggregates. */
  public QueryOptions(int batchSize, long memoryLimitBytes, Clock clock, long planCacheSize, boolean subtreePushDown,
      SubtreeExecutor executor, dev.lake.query.sql.StatementLimits statementLimits, SpillOptions spill,
      boolean autoParameterize) {
    this(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, executor, statementLimits, spill,
        autoParameterize, DEFAULT_VECTORIZED_MAX_GROUPS);
  }

  /** These settings with literal auto-parameterization on. */
  public QueryOptions(int batchSize, long memoryLimitBytes, Clock clock, long planCacheSize, boolean subtreePushDown,
      SubtreeExecutor executor, dev.lake.query.sql.StatementLimits statementLimits, SpillOptions spill) {
    this(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, executor, statementLimits, spill, true);
  }

  /** These settings with the default spill budgets. */
  public QueryOptions(int batchSize, long memoryLimitBytes, Clock clock, long planCacheSize, boolean subtreePushDown,
      SubtreeExecutor executor, dev.lake.query.sql.StatementLimits statementLimits) {
    this(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, executor, statementLimits,
        SpillOptions.defaults());
  }

  /** These settings with the default statement limits. */
  public QueryOptions(int batchSize, long memoryLimitBytes, Clock clock, long planCacheSize, boolean subtreePushDown,
      SubtreeExecutor executor) {
    this(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, executor,
        dev.lake.query.sql.StatementLimits.defaults());
  }

  /** These settings with the planner choosing each subtree's engine. */
  public QueryOptions(int batchSize, long memoryLimitBytes, Clock clock, long planCacheSize, boolean subtreePushDown) {
    this(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, SubtreeExecutor.AUTO);
  }

  /** These settings with the default plan cache size. */
  public QueryOptions(int batchSize, long memoryLimitBytes, Clock clock) {
    this(batchSize, memoryLimitBytes, clock, DEFAULT_PLAN_CACHE_SIZE);
  }

  /** These settings with subtree push-down on. */
  public QueryOptions(int batchSize, long memoryLimitBytes, Clock clock, long planCacheSize) {
    this(batchSize, memoryLimitBytes, clock, planCacheSize, true);
  }

  /**
   * 65,536-row batches, no memory limit beyond the caller's allocator, the system clock, a 64 MB plan cache,
   * subtree push-down on.
   */
  public static QueryOptions defaults() {
    return new QueryOptions(DEFAULT_BATCH_SIZE, Long.MAX_VALUE, Clock.systemUTC(), DEFAULT_PLAN_CACHE_SIZE);
  }

  public QueryOptions withBatchSize(int newBatchSize) {
    return new QueryOptions(newBatchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, executor,
        statementLimits, spill, autoParameterize, vectorizedMaxGroups);
  }

  public QueryOptions withPlanCacheSize(long newPlanCacheSize) {
    return new QueryOptions(batchSize, memoryLimitBytes, clock, newPlanCacheSize, subtreePushDown, executor,
        statementLimits, spill, autoParameterize, vectorizedMaxGroups);
  }

  public QueryOptions withSubtreePushDown(boolean pushDown) {
    return new QueryOptions(batchSize, memoryLimitBytes, clock, planCacheSize, pushDown, executor,
        statementLimits, spill, autoParameterize, vectorizedMaxGroups);
  }

  public QueryOptions withExecutor(SubtreeExecutor newExecutor) {
    return new QueryOptions(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, newExecutor,
        statementLimits, spill, autoParameterize, vectorizedMaxGroups);
  }

  /** These settings with {@code limits} on every statement (length, depth, IN lists, joins, set operations). */
  public QueryOptions withStatementLimits(dev.lake.query.sql.StatementLimits limits) {
    return new QueryOptions(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, executor, limits,
        spill, autoParameterize, vectorizedMaxGroups);
  }

  /** These settings with {@code groups} as the vectorized executor's aggregate limit under {@code executor} auto. */
  public QueryOptions withVectorizedMaxGroups(long groups) {
    return new QueryOptions(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, executor,
        statementLimits, spill, autoParameterize, groups);
  }

  /** These settings with operators spilling as {@code newSpill} says. */
  public QueryOptions withSpill(SpillOptions newSpill) {
    return new QueryOptions(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, executor,
        statementLimits, newSpill, autoParameterize, vectorizedMaxGroups);
  }

  /** These settings with {@code bytes} as each statement's memory limit. */
  public QueryOptions withMemoryLimit(long bytes) {
    return new QueryOptions(batchSize, bytes, clock, planCacheSize, subtreePushDown, executor, statementLimits,
        spill, autoParameterize, vectorizedMaxGroups);
  }

  /** These settings with literal auto-parameterization of un-prepared statements on or off. */
  public QueryOptions withAutoParameterize(boolean on) {
    return new QueryOptions(batchSize, memoryLimitBytes, clock, planCacheSize, subtreePushDown, executor,
        statementLimits, spill, on, vectorizedMaxGroups);
  }
}
