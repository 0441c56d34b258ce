/**
 * The rule programs: sub-query removal, OR-factoring, normalization, heuristic join ordering over the pinned
 * versions' row counts and distinct-value estimates, the late and physical rule sets ({@link
 * dev.lake.query.plan.rules.PlanRules}), the outer-join count rewrite, and correlated EXISTS / NOT EXISTS with a
 * non-equi condition as semi and anti joins ({@link dev.lake.query.plan.rules.CorrelatedSemiJoins}).
 *
 * <p>Rules: imports {@code plan.lance} and {@code plan.vector} (their scan and node rules); never {@code plan}.
 */
package dev.lake.query.plan.rules;
