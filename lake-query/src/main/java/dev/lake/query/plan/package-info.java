/**
 * Planning: the Arrow/SQL type mapping, lake's Calcite type system, the per-statement schema {@code lake.main}, the
 * rule programs (sub-queries, OR-factoring, normalization, heuristic join ordering over the pinned versions' row
 * counts and distinct-value estimates), Lance scans and the rules that push projections, filters and limits into
 * them, the push-down of whole single-table subtrees into Lance's SQL engine ({@link dev.lake.query.plan.LancePushdown},
 * {@link dev.lake.query.plan.LanceSqlScan}, SQL written by {@link dev.lake.query.plan.LanceSqlGenerator} in
 * {@link dev.lake.query.plan.LanceSqlDialect}), parameter binding, the choice between pass-through, a whole statement
 * in Lance and Calcite's Enumerable runtime, and compiled plans that hold nothing of an execution (scan sources are
 * bound per execution), so they can be cached.
 */
package dev.lake.query.plan;
