/**
 * What lake adds to Calcite's Enumerable runtime: exact arithmetic and comparisons — the plan walk
 * ({@link dev.lake.query.plan.enumerable.ExactRuntime}), the expression rewrite
 * ({@link dev.lake.query.plan.enumerable.ExactExpressions}) with its temporal and decimal parts
 * ({@link dev.lake.query.plan.enumerable.TemporalRewrites}, {@link dev.lake.query.plan.enumerable.DecimalRewrites}),
 * the operators they put in ({@link dev.lake.query.plan.enumerable.ExactOperators}) and what the generated code
 * calls ({@link dev.lake.query.plan.enumerable.TemporalFunctions},
 * {@link dev.lake.query.plan.enumerable.DecimalFunctions}, {@link dev.lake.query.plan.enumerable.CheckedSum}) —
 * retyping, and the row checkpoints that let a statement be stopped
 * ({@link dev.lake.query.plan.enumerable.RuntimeChecks}).
 *
 * <p>Rule: imports no other planner package.
 */
package dev.lake.query.plan.enumerable;
