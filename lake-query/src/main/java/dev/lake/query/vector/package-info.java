/**
 * lake's vectorized executor for single-table subtrees: Arrow batches read fragment by fragment in parallel in one
 * Lance scan, filtered with selection vectors, projected and hash-aggregated column at a time; partial aggregates of
 * the fragments are merged, then post-aggregate filters, projections and the sort run on the (few) grouped rows.
 * Values: integers, DATE (int days) and DECIMAL(p<=18) as longs (decimals unscaled, with exact overflow checks that
 * fall back to BigDecimal per value), floating point as doubles, strings as bytes in the batch. {@link
 * dev.lake.query.vector.ExprCompiler} turns Calcite expressions into {@link dev.lake.query.vector.Expr}s or says why
 * it cannot; {@link dev.lake.query.vector.VectorExecutor} runs a {@link dev.lake.query.vector.VectorPlan} on a pinned
 * snapshot with a {@link dev.lake.query.vector.VectorRuntime}'s bounded thread pool and sampled-selectivity cache.
 * Inner equi-joins on the way from the scan to the aggregate are {@link dev.lake.query.vector.Op.Probe}s of
 * {@link dev.lake.query.vector.JoinTable}s that each execution builds from the other join inputs first.
 */
package dev.lake.query.vector;
