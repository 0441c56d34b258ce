/**
 * What lake adds to Calcite's Enumerable runtime: exact arithmetic and comparisons ({@link
 * dev.lake.query.plan.enumerable.ExactRuntime}, {@link dev.lake.query.plan.enumerable.ExactFunctions}), retyping, and
 * the row checkpoints that let a statement be stopped ({@link dev.lake.query.plan.enumerable.RuntimeChecks}).
 *
 * <p>Rule: imports no other planner package.
 */
package dev.lake.query.plan.enumerable;
