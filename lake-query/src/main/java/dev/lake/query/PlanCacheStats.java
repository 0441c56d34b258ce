package dev.lake.query;

/**
 * Counters of the {@link QueryService}'s plan cache since it was created.
 *
 * @param hits prepares and executions that reused a validated statement (no parse, no validation)
 * @param misses those that parsed and validated (and then cached the result)
 * @param busy executions that found their cached statement being planned by another one and planned a private
 *     copy instead
 * @param size statements cached now
 * @param bound executions that bound their parameter values into a statement planned once, without planning
 *     (a parameterized pass-through scan, {@link dev.lake.query.plan.ParameterizedScan})
 * @param reused hits that found the statement validated for earlier versions of its tables, which are small appends
 *     of those (docs/performance.md, "Plans across appends"): it ran without being validated or planned again
 */
public record PlanCacheStats(long hits, long misses, long busy, long size, long bound, long reused) {
  /** Counters without reuses across appends. */
  public PlanCacheStats(long hits, long misses, long busy, long size, long bound) {
    this(hits, misses, busy, size, bound, 0);
  }

  /** Counters without bound executions. */
  public PlanCacheStats(long hits, long misses, long busy, long size) {
    this(hits, misses, busy, size, 0);
  }
}
