package dev.lake.query.plan.rules;

import dev.lake.query.plan.lance.LanceRuleConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Pulls the conjuncts that every branch of an OR shares out of it: {@code (a AND x) OR (a AND y)} becomes
 * {@code a AND (x OR y)}. TPC-H Q19 repeats its join condition {@code p_partkey = l_partkey} in each branch; once
 * factored out, it is an equi-join condition (a hash join) instead of a filter over a cross product. Applies only
 * when a factor was actually pulled out, so the rules reach a fixpoint.
 */
final class FactorDisjunctionRules {
  static final RelOptRule FILTER = new LanceRuleConfig("FactorDisjunctionInFilter",
      b -> b.operand(Filter.class).anyInputs(), RelFactories.LOGICAL_BUILDER, FilterRule::new).toRule();

  static final RelOptRule JOIN = new LanceRuleConfig("FactorDisjunctionInJoin",
      b -> b.operand(Join.class).anyInputs(), RelFactories.LOGICAL_BUILDER, JoinRule::new).toRule();

  private FactorDisjunctionRules() {}

  /** The condition with common factors pulled out of its OR conjuncts, or null when there is none. */
  static RexNode factored(RexBuilder rexBuilder, RexNode condition) {
    boolean changed = false;
    List<RexNode> conjuncts = new ArrayList<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
      if (conjunct.getKind() == SqlKind.OR) {
        List<RexNode> pulled = RelOptUtil.conjunctions(RexUtil.pullFactors(rexBuilder, conjunct));
        if (pulled.size() > 1) {
          conjuncts.addAll(pulled);
          changed = true;
          continue;
        }
      }
      conjuncts.add(conjunct);
    }
    return changed ? RexUtil.composeConjunction(rexBuilder, conjuncts) : null;
  }

  private static final class FilterRule extends RelRule<LanceRuleConfig> {
    FilterRule(LanceRuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Filter filter = call.rel(0);
      RexNode factored = factored(filter.getCluster().getRexBuilder(), filter.getCondition());
      if (factored != null) {
        call.transformTo(filter.copy(filter.getTraitSet(), filter.getInput(), factored));
      }
    }
  }

  private static final class JoinRule extends RelRule<LanceRuleConfig> {
    JoinRule(LanceRuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Join join = call.rel(0);
      RexNode factored = factored(join.getCluster().getRexBuilder(), join.getCondition());
      if (factored != null) {
        call.transformTo(join.copy(join.getTraitSet(), factored, join.getLeft(), join.getRight(), join.getJoinType(),
            join.isSemiJoinDone()));
      }
    }
  }
}
