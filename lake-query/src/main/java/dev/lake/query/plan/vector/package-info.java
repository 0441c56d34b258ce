/**
 * Vectorized planning: Calcite subtrees compiled into the vectorized executor's {@link
 * dev.lake.query.vector.VectorPlan}s — expressions ({@link dev.lake.query.plan.vector.ExprCompiler}), single-table
 * subtrees ({@link dev.lake.query.plan.vector.VectorPlanner}), aggregates over inner joins ({@link
 * dev.lake.query.plan.vector.VectorJoins}, their nodes and build sides) — and the scans that read the column cache
 * ({@link dev.lake.query.plan.vector.ColumnCacheScans}) — and the one conversion of a vectorized result into
 * Calcite's rows, for a vectorized subtree under a Calcite operator ({@link dev.lake.query.plan.vector.VectorRows}).
 *
 * <p>Rules: this is where Calcite meets the vectorized executor — {@code dev.lake.query.vector} itself imports no
 * Calcite. Imports {@code plan.lance} and {@code plan.types}; never {@code plan} (it compiles what {@link
 * dev.lake.query.plan.EngineChoice} asks for and says {@link dev.lake.query.vector.Unsupported} otherwise).
 */
package dev.lake.query.plan.vector;
