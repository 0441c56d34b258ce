package dev.lake.query.plan.rules;

import dev.lake.query.plan.lance.EnumerablePushedSubtree;
import dev.lake.query.plan.lance.LanceScanRules;
import dev.lake.query.plan.vector.EnumerableVectorJoin;
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
 * The rule sets of lake's planner. Logical rewriting runs in deterministic Hep programs, in this order: sub-queries,
 * normalization (constant folding, filter and projection push-down — into Lance scans too —, common factors pulled
 * out of ORs), heuristic join ordering ({@link #JOIN_ORDER}), then — after whole single-table subtrees were pushed
 * into Lance's SQL engine ({@link dev.lake.query.plan.lance.LancePushdown}) — the late rewrites ({@link #LATE}:
 * aggregate functions Calcite's
 * runtime lacks, and what is left to push into Lance scans). The cost-based Volcano phase only picks Enumerable
 * implementations; it never explores join orders (docs/dependencies.md: stock join exploration takes seconds on TPC-H
 * Q7 and Q19).
 */
public final class PlanRules {
  private static final int MAX_EXPANSIONS = 64;

  /** Sub-queries to correlates, before decorrelation. */
  public static final HepProgram SUB_QUERIES = new HepProgramBuilder()
      .addRuleCollection(List.of(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
          CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE))
      .build();

  /**
   * OR-ed join predicates (TPC-H Q7, Q19), before normalization: common conjuncts are pulled out of each OR (a join
   * condition repeated in every branch becomes an equi-join key), then each OR spanning a join's inputs also yields,
   * per input, the OR of what its branches say about that input alone — redundant filters that normalization pushes
   * below the join.
   */
  public static final HepProgram DISJUNCTIONS = new HepProgramBuilder()
      .addRuleCollection(List.of(FactorDisjunctionRules.FILTER, FactorDisjunctionRules.JOIN))
      .addMatchLimit(MAX_EXPANSIONS)
      .addRuleCollection(List.of(CoreRules.EXPAND_FILTER_DISJUNCTION_LOCAL, CoreRules.EXPAND_JOIN_DISJUNCTION_LOCAL))
      .build();

  /** Logical normalization and push-down into Lance scans, to a fixpoint. */
  public static final HepProgram NORMALIZE = new HepProgramBuilder()
      .addMatchOrder(HepMatchOrder.BOTTOM_UP)
      .addRuleCollection(normalizeRules())
      .build();

  /**
   * Heuristic join ordering: inner joins are gathered into one multi-join and re-ordered by Calcite's
   * {@code LoptOptimizeJoinRule} (row counts of the pinned versions, selectivities; no exhaustive search), then the
   * filters and projections it leaves are normalized again.
   */
  public static final HepProgram JOIN_ORDER = new HepProgramBuilder()
      .addMatchOrder(HepMatchOrder.BOTTOM_UP)
      .addRuleCollection(List.of(CoreRules.JOIN_TO_MULTI_JOIN, CoreRules.PROJECT_MULTI_JOIN_MERGE,
          CoreRules.FILTER_MULTI_JOIN_MERGE))
      .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
      .addMatchOrder(HepMatchOrder.BOTTOM_UP)
      .addRuleCollection(List.of(CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH,
          CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_MERGE, CoreRules.PROJECT_MERGE,
          CoreRules.PROJECT_REMOVE))
      .build();

  /**
   * After the push-down into Lance's SQL engine: aggregate functions reduced to ones Calcite's runtime implements
   * (AVG to SUM/COUNT, DISTINCT aggregates to grouping; Lance computes both itself), and projections, filters and
   * limits pushed into Lance scans.
   */
  public static final HepProgram LATE = new HepProgramBuilder()
      .addMatchOrder(HepMatchOrder.BOTTOM_UP)
      .addRuleCollection(lateRules())
      .build();

  /** The Volcano phase: Enumerable implementations of logical operators. */
  public static final List<RelOptRule> PHYSICAL = List.of(
      EnumerablePushedSubtree.RULE,
      EnumerableVectorJoin.RULE,
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

  private static List<RelOptRule> lateRules() {
    List<RelOptRule> rules = new ArrayList<>(List.of(
        CoreRules.AGGREGATE_REDUCE_FUNCTIONS,
        CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES,
        CoreRules.FILTER_MERGE,
        CoreRules.PROJECT_MERGE,
        CoreRules.PROJECT_REMOVE,
        CoreRules.FILTER_PROJECT_TRANSPOSE));
    rules.addAll(LanceScanRules.ALL);
    return rules;
  }
}
