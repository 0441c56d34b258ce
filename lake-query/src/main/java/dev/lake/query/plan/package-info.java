/**
 * Statement planning: validation against the per-statement schema {@code lake.main} ({@link
 * dev.lake.query.plan.MainSchema}, tables from a {@link dev.lake.query.plan.TableResolver}), conversion to relational
 * algebra, parameter binding, the rule programs and join ordering ({@code plan.rules}), the one engine-choice step
 * ({@link dev.lake.query.plan.EngineChoice}, whose result for a statement is a sealed {@link
 * dev.lake.query.plan.Engine}), result schemas, EXPLAIN text, and compiled plans that hold nothing of an execution
 * (scan sources are bound per execution), so they can be cached.
 *
 * <p>Rules: the sub-packages never import this package. Among them the arrows run one way: {@code rules} →
 * {@code vector}, {@code lance}; {@code vector} → {@code lance}, {@code types}; {@code runtime} → {@code lance},
 * {@code types}; {@code stats} → {@code lance}; {@code lance} → {@code types}; {@code enumerable} and {@code types}
 * import no planner package. Which engine runs what is decided only in {@link dev.lake.query.plan.EngineChoice}.
 */
package dev.lake.query.plan;
