package dev.lake.query.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.PruneEmptyRules;

/**
 * The rule sets of lake's planner. Logical rewriting (sub-queries, constant folding, filter and projection
 * push-down, pushing into Lance scans) runs in deterministic Hep programs; the cost-based Volcano phase only picks
 * Enumerable implementations, without join reordering (facts.md: stock join exploration takes seconds on TPC-H Q7
 * and Q19).
 */
final class PlanRules {
  /** Sub-queries to correlates, before decorrelation. */
  static final HepProgram SUB_QUERIES = new HepProgramBuilder()
      .addRuleCollection(List.of(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
          CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE))
      .build();

  /** Logical normalization and push-down into Lance scans, to a fixpoint. */
  static final HepProgram NORMALIZE = new HepProgramBuilder()
      .addMatchOrder(HepMatchOrder.BOTTOM_UP)
      .addRuleCollection(normalizeRules())
      .build();

  /** The Volcano phase: Enumerable implementations of logical operators. */
  static final List<RelOptRule> PHYSICAL = List.of(
      EnumerableRules.ENUMERABLE_JOIN_RULE,
      EnumerableRules.ENUMERABLE_CORRELATE_RULE,
      EnumerableRules.ENUMERABLE_PROJECT_RULE,
      EnumerableRules.ENUMERABLE_FILTER_RULE,
      EnumerableRules.ENUMERABLE_CALC_RULE,
      EnumerableRules.ENUMERABLE_AGGREGATE_RULE,
      EnumerableRules.ENUMERABLE_SORT_RULE,
      EnumerableRules.ENUMERABLE_LIMIT_RULE,
      EnumerableRules.ENUMERABLE_LIMIT_SORT_RULE,
      EnumerableRules.ENUMERABLE_UNION_RULE,
      EnumerableRules.ENUMERABLE_INTERSECT_RULE,
      EnumerableRules.ENUMERABLE_MINUS_RULE,
      EnumerableRules.ENUMERABLE_VALUES_RULE,
      EnumerableRules.ENUMERABLE_WINDOW_RULE,
      EnumerableRules.ENUMERABLE_COLLECT_RULE,
      EnumerableRules.ENUMERABLE_UNCOLLECT_RULE,
      EnumerableRules.ENUMERABLE_REPEAT_UNION_RULE,
      EnumerableRules.ENUMERABLE_TABLE_SPOOL_RULE,
      EnumerableRules.ENUMERABLE_MATCH_RULE,
      CoreRules.SORT_REMOVE,
      CoreRules.PROJECT_REMOVE);

  private PlanRules() {}

  private static List<RelOptRule> normalizeRules() {
    List<RelOptRule> rules = new ArrayList<>(List.of(
        CoreRules.FILTER_REDUCE_EXPRESSIONS,
        CoreRules.PROJECT_REDUCE_EXPRESSIONS,
        CoreRules.JOIN_REDUCE_EXPRESSIONS,
        CoreRules.FILTER_MERGE,
        CoreRules.PROJECT_MERGE,
        CoreRules.PROJECT_REMOVE,
        CoreRules.FILTER_PROJECT_TRANSPOSE,
        CoreRules.FILTER_INTO_JOIN,
        CoreRules.JOIN_CONDITION_PUSH,
        CoreRules.FILTER_AGGREGATE_TRANSPOSE,
        CoreRules.FILTER_SET_OP_TRANSPOSE,
        CoreRules.AGGREGATE_PROJECT_MERGE,
        CoreRules.AGGREGATE_REDUCE_FUNCTIONS,
        CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES,
        CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW,
        CoreRules.UNION_MERGE,
        CoreRules.FILTER_VALUES_MERGE,
        CoreRules.PROJECT_FILTER_VALUES_MERGE,
        CoreRules.PROJECT_VALUES_MERGE,
        PruneEmptyRules.UNION_INSTANCE,
        PruneEmptyRules.INTERSECT_INSTANCE,
        PruneEmptyRules.MINUS_INSTANCE,
        PruneEmptyRules.PROJECT_INSTANCE,
        PruneEmptyRules.FILTER_INSTANCE,
        PruneEmptyRules.SORT_INSTANCE,
        PruneEmptyRules.AGGREGATE_INSTANCE,
        PruneEmptyRules.JOIN_LEFT_INSTANCE,
        PruneEmptyRules.JOIN_RIGHT_INSTANCE,
        PruneEmptyRules.SORT_FETCH_ZERO_INSTANCE));
    rules.addAll(LanceScanRules.ALL);
    return rules;
  }
}
