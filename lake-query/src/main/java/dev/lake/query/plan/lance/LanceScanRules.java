package dev.lake.query.plan.lance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableIntList;

/**
 * Planner rules that push work into a {@link LanceTableScan}: projections of stored columns, the translatable
 * conjuncts of a filter, and a limit without ORDER BY.
 */
public final class LanceScanRules {
  /** Project of distinct input columns over a scan: the scan returns just those columns. */
  public static final RelOptRule PROJECT = new LanceRuleConfig("LanceProjectIntoScan",
      b -> b.operand(Project.class).oneInput(s -> s.operand(LanceTableScan.class).noInputs()),
      RelFactories.LOGICAL_BUILDER, ProjectRule::new).toRule();

  /** Filter over a scan without a limit: translatable conjuncts move into the scan's Lance filter. */
  public static final RelOptRule FILTER = new LanceRuleConfig("LanceFilterIntoScan",
      b -> b.operand(Filter.class).oneInput(s -> s.operand(LanceTableScan.class).noInputs()),
      RelFactories.LOGICAL_BUILDER, FilterRule::new).toRule();

  /** FETCH without ORDER BY over a scan: the scan stops after that many rows (plus any OFFSET). */
  public static final RelOptRule LIMIT = new LanceRuleConfig("LanceLimitIntoScan",
      b -> b.operand(Sort.class).oneInput(s -> s.operand(LanceTableScan.class).noInputs()),
      RelFactories.LOGICAL_BUILDER, LimitRule::new).toRule();

  /** All of them. */
  public static final List<RelOptRule> ALL = List.of(PROJECT, FILTER, LIMIT);

  private LanceScanRules() {}

  private static final class ProjectRule extends RelRule<LanceRuleConfig> {
    ProjectRule(LanceRuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Project project = call.rel(0);
      LanceTableScan scan = call.rel(1);
      ImmutableIntList current = scan.projects();
      List<Integer> projected = new ArrayList<>();
      Set<Integer> seen = new HashSet<>();
      for (RexNode expression : project.getProjects()) {
        if (!(expression instanceof RexInputRef)) {
          return;
        }
        int stored = current.get(((RexInputRef) expression).getIndex());
        if (!seen.add(stored)) {
          return;
        }
        projected.add(stored);
      }
      call.transformTo(scan.withProjects(ImmutableIntList.copyOf(projected)));
    }
  }

  private static final class FilterRule extends RelRule<LanceRuleConfig> {
    FilterRule(LanceRuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Filter filter = call.rel(0);
      LanceTableScan scan = call.rel(1);
      if (scan.limit().isPresent()) {
        return;
      }
      RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
      RexNode expanded = RexUtil.expandSearch(rexBuilder, null, filter.getCondition());
      List<Field> fields = scan.outputFields();
      List<String> pushed = new ArrayList<>();
      List<RexNode> pushedConjuncts = new ArrayList<>();
      List<RexNode> kept = new ArrayList<>();
      for (RexNode conjunct : RelOptUtil.conjunctions(expanded)) {
        Optional<String> translated = LanceFilterTranslator.translate(conjunct, fields);
        if (translated.isPresent()) {
          pushed.add(translated.get());
          pushedConjuncts.add(conjunct);
        } else {
          kept.add(conjunct);
        }
      }
      if (pushed.isEmpty()) {
        return;
      }
      scan.filter().ifPresent(existing -> pushed.add(0, existing));
      List<RexNode> conditions = new ArrayList<>();
      scan.condition().ifPresent(conditions::add);
      conditions.add(storedColumns(rexBuilder, scan, pushedConjuncts));
      LanceTableScan narrowed = scan.withFilter(String.join(" AND ", pushed),
          RexUtil.composeConjunction(rexBuilder, conditions));
      call.transformTo(kept.isEmpty() ? narrowed
          : filter.copy(filter.getTraitSet(), narrowed, RexUtil.composeConjunction(rexBuilder, kept)));
    }
  }

  /** The conjunction of {@code conjuncts} (over the scan's output) rewritten over the table's stored columns. */
  private static RexNode storedColumns(RexBuilder rexBuilder, LanceTableScan scan, List<RexNode> conjuncts) {
    List<RelDataTypeField> stored = scan.getTable().getRowType().getFieldList();
    ImmutableIntList projects = scan.projects();
    return RexUtil.composeConjunction(rexBuilder, conjuncts).accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        int column = projects.get(ref.getIndex());
        return new RexInputRef(column, stored.get(column).getType());
      }
    });
  }

  private static final class LimitRule extends RelRule<LanceRuleConfig> {
    LimitRule(LanceRuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      Sort sort = call.rel(0);
      LanceTableScan scan = call.rel(1);
      if (!sort.getCollation().getFieldCollations().isEmpty() || !(sort.fetch instanceof RexLiteral)) {
        return;
      }
      Long fetch = ((RexLiteral) sort.fetch).getValueAs(Long.class);
      Long offset = sort.offset == null ? Long.valueOf(0) : sort.offset instanceof RexLiteral
          ? ((RexLiteral) sort.offset).getValueAs(Long.class) : null;
      if (fetch == null || offset == null || fetch < 0 || offset < 0 || fetch > Long.MAX_VALUE - offset) {
        return;
      }
      long needed = fetch + offset;
      if (scan.limit().isPresent() && scan.limit().get() <= needed) {
        if (offset == 0) {
          call.transformTo(scan);
        }
        return;
      }
      LanceTableScan limited = scan.withLimit(needed);
      call.transformTo(offset == 0 ? limited
          : sort.copy(sort.getTraitSet(), limited, sort.getCollation(), sort.offset, sort.fetch));
    }
  }
}
