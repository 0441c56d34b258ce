package dev.lake.query.plan.vector;

import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.rules.CoreRules;

/**
 * DISTINCT aggregates of a vectorized join's chain rewritten as Calcite's late rules rewrite them for its runtime:
 * {@code COUNT(DISTINCT x) GROUP BY k} becomes {@code COUNT(x)} over the groups of {@code (k, x)} (TPC-H Q16), which
 * the probe pipeline runs as an aggregate and a re-aggregate of its groups.
 */
final class DistinctAggregates {
  private static final HepProgram EXPAND = new HepProgramBuilder()
      .addRuleInstance(CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES)
      .build();

  private DistinctAggregates() {}

  /** {@code top} with its chain's DISTINCT aggregates expanded, or {@code top} itself when it has none. */
  static RelNode expand(RelNode top) {
    if (!hasDistinct(top)) {
      return top;
    }
    HepPlanner planner = new HepPlanner(EXPAND);
    planner.setRoot(top);
    return planner.findBestExp();
  }

  private static boolean hasDistinct(RelNode rel) {
    for (RelNode node = rel; node.getInputs().size() == 1; node = node.getInput(0)) {
      if (node instanceof Aggregate) {
        for (AggregateCall call : ((Aggregate) node).getAggCallList()) {
          if (call.isDistinct()) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
