/**
 * Lance push-down: the Calcite table and scan of a pinned Lance version ({@link dev.lake.query.plan.lance.LanceTable},
 * {@link dev.lake.query.plan.lance.LanceTableScan}) and the rules that push projections, filters (translated to
 * Lance's filter dialect by {@link dev.lake.query.plan.lance.LanceFilterTranslator}) and limits into it; the search for
 * single-table subtrees worth pushing down whole ({@link dev.lake.query.plan.lance.LancePushdown}), their statements in
 * Lance's SQL ({@link dev.lake.query.plan.lance.LanceSqlGenerator} in {@link
 * dev.lake.query.plan.lance.LanceSqlDialect})
 * and the nodes that carry a pushed subtree with the engine chosen for it ({@link
 * dev.lake.query.plan.lance.PushedSubtree}, {@link dev.lake.query.plan.lance.EnumerablePushedSubtree}, {@link
 * dev.lake.query.plan.lance.SubtreeEngine}); the calls compiled plans make at run time ({@link
 * dev.lake.query.plan.lance.ScanSource}, runtime filters and their keys).
 *
 * <p>Rules: imports {@code plan.types} and the vectorized executor's plan types ({@code dev.lake.query.vector}) only;
 * never the vectorized planner ({@code plan.vector}) or statement planning ({@code plan}). It does not choose engines:
 * {@link dev.lake.query.plan.EngineChoice} does.
 */
package dev.lake.query.plan.lance;
