/**
 * lake's vectorized executor for single-table subtrees: Arrow batches read fragment by fragment in parallel in one
 * Lance scan, filtered with selection vectors, projected and hash-aggregated column at a time; partial aggregates of
 * the fragments are merged, then post-aggregate filters, projections and the sort run on the (few) grouped rows.
 * Values: integers, DATE (int days) and DECIMAL(p<=18) as longs (decimals unscaled, with exact overflow checks that
 * fall back to BigDecimal per value), floating point as doubles, strings as bytes in the batch. The planner builds
 * {@link dev.lake.query.vector.Expr}s through {@link dev.lake.query.vector.Exprs} (operators as
 * {@link dev.lake.query.vector.Comparison} and {@link dev.lake.query.vector.Arithmetic}); {@link
 * dev.lake.query.vector.VectorExecutor} runs a {@link dev.lake.query.vector.VectorPlan} on a pinned
 * snapshot with a {@link dev.lake.query.vector.VectorRuntime}'s bounded thread pool and sampled-selectivity cache.
 * Inner equi-joins on the way from the scan to the aggregate are {@link dev.lake.query.vector.Op.Probe}s of
 * {@link dev.lake.query.vector.JoinTable}s that each execution builds from the other join inputs first.
 *
 * <p>Results stay columnar: a plan's result is a {@link dev.lake.query.vector.VectorResult} (its columns, sorted and
 * cut as a row order), written into Arrow vectors of the statement's result types
 * ({@link dev.lake.query.vector.VectorResult#fill}).
 *
 * <p>Rules (lake-query's {@code ArchitectureRulesTest}): this package imports nothing of Calcite, and no method of it
 * returns rows ({@code Object[]}, lists or iterators of them). It knows Arrow, Lance's scans and its own plan
 * ({@link dev.lake.query.vector.VectorPlan}); turning Calcite's relational algebra and row expressions into that plan,
 * and a result into Calcite's rows where a Calcite operator consumes it, is the planner's job (dev.lake.query.plan,
 * {@code plan.vector.VectorRows}).
 */
package dev.lake.query.vector;
