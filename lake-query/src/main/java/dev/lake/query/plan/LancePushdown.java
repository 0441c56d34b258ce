package dev.lake.query.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rex.RexInputRef;
import dev.lake.query.vector.Unsupported;
import dev.lake.query.vector.VectorPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces every maximal single-table subtree — filters, projections, aggregates, sorts and limits over one
 * {@link LanceTableScan}, using only {@link PushableExpressions} — by a {@link LanceSqlScan} that runs it whole in
 * Lance's SQL engine, when Lance's scan alone could not do it (an aggregate, a sort, a computed column or a filter
 * Lance's scan filter cannot express). Subtrees a scan does alone (stored columns, translatable filter, limit) stay
 * scans: a scan streams stored batches with late materialization. Runs before the Volcano phase, after join
 * ordering; everything above the replaced subtrees (joins, set operations, correlations) stays in Calcite.
 */
final class LancePushdown {
  private static final Logger LOG = LoggerFactory.getLogger(LancePushdown.class);
  /**
   * The planner's rule gives an aggregate of more estimated groups to Lance's SQL engine: measured on TPC-H SF 1, the
   * vectorized executor wins with few groups (Q1: 0.78x Lance SQL) and loses with hundreds of thousands (Q17's
   * 200,000 part keys, Q18's 1.5 million order keys), where merging per-fragment partials costs more than it saves.
   */
  static final int MAX_VECTORIZED_GROUPS = 50_000;

  private LancePushdown() {}

  /** {@code rel} with its maximal single-table subtrees pushed down where that gains anything. */
  static RelNode rewrite(RelNode rel, SubtreeExecutor executor) {
    Optional<Single> single = single(rel);
    if (single.isPresent()) {
      return single.get().worthSql && PushableExpressions.rowType(rel.getRowType())
          ? push(rel, single.get(), executor) : rel;
    }
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode rewritten = rewrite(input, executor);
      changed |= rewritten != input;
      inputs.add(rewritten);
    }
    return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
  }

  private static RelNode push(RelNode subtree, Single single, SubtreeExecutor executor) {
    String sql;
    try {
      sql = LanceSqlGenerator.sql(subtree);
    } catch (RuntimeException | AssertionError e) {
      Throwable cause = e;
      while (cause.getCause() != null && cause.getCause() != cause) {
        cause = cause.getCause();
      }
      LOG.warn("subtree not pushed: no Lance SQL could be written for it table={} error={}",
          single.scan.lanceTable().name(), cause.toString());
      return subtree;
    }
    Optional<VectorPlan> vector = Optional.empty();
    String why;
    if (executor == SubtreeExecutor.LANCE_SQL) {
      why = "query.executor=lance-sql";
    } else {
      try {
        VectorPlan compiled = VectorPlanner.compile(subtree, single.scan);
        double groups = estimatedGroups(subtree);
        if (executor == SubtreeExecutor.AUTO && groups > MAX_VECTORIZED_GROUPS) {
          why = String.format(java.util.Locale.ROOT, "about %.0f groups: Lance's SQL engine aggregates many groups"
              + " faster (vectorized up to %d)", groups, MAX_VECTORIZED_GROUPS);
        } else {
          vector = Optional.of(compiled);
          why = executor == SubtreeExecutor.VECTORIZED ? "query.executor=vectorized"
              : String.format(java.util.Locale.ROOT, "aggregate of about %.0f groups over one table: fragments"
                  + " scanned once in parallel (filter kept in Lance only when sampled selectivity <= 5%%),"
                  + " aggregated on unscaled longs", groups);
        }
      } catch (Unsupported e) {
        why = "not vectorized: " + e.getMessage();
      }
    }
    String inexact = vector.isEmpty() ? PushableExpressions.inexactInLance(subtree) : null;
    if (inexact != null) {
      LOG.debug("subtree not pushed: Lance's SQL engine would compute {} table={}", inexact,
          single.scan.lanceTable().name());
      return subtree;
    }
    return LanceSqlScan.of(subtree, new PushedStatement(single.scan.lanceTable(), sql, single.pushed, vector, why));
  }

  /** The planner's estimate of the groups of the subtree's aggregate (its row count); 1 when it has none. */
  private static double estimatedGroups(RelNode subtree) {
    for (RelNode rel = subtree; rel.getInputs().size() == 1; rel = rel.getInput(0)) {
      if (rel instanceof Aggregate) {
        Double rows = rel.getCluster().getMetadataQuery().getRowCount(rel);
        return rows == null ? 1 : rows;
      }
    }
    return 1;
  }

  /**
   * What a single-table subtree headed by {@code rel} pushes, or empty when {@code rel} does not head one.
   *
   * @param worthSql whether Lance's SQL engine does more than its scan could
   * @param pushed the operators, from the scan up (adjacent repeats merged)
   */
  private record Single(LanceTableScan scan, boolean worthSql, List<String> pushed) {
    Single with(String operator, boolean worth) {
      List<String> operators = new ArrayList<>(pushed);
      if (operators.isEmpty() || !operators.get(operators.size() - 1).equals(operator)) {
        operators.add(operator);
      }
      return new Single(scan, worthSql || worth, operators);
    }
  }

  private static Optional<Single> single(RelNode rel) {
    if (rel.getRowType().getFieldCount() == 0) {
      return Optional.empty();
    }
    if (rel instanceof LanceTableScan) {
      LanceTableScan scan = (LanceTableScan) rel;
      if (scan.filter().isPresent() && scan.condition().isEmpty()) {
        return Optional.empty();
      }
      Single single = new Single(scan, false, List.of());
      single = scan.filter().isPresent() ? single.with("filter", false) : single;
      return Optional.of(scan.limit().isPresent() ? single.with("limit", false) : single);
    }
    if (rel.getInputs().size() != 1) {
      return Optional.empty();
    }
    Optional<Single> input = single(rel.getInput(0));
    if (input.isEmpty()) {
      return Optional.empty();
    }
    if (rel instanceof Filter) {
      Filter filter = (Filter) rel;
      if (!PushableExpressions.expression(filter.getCondition())) {
        return Optional.empty();
      }
      // Filters Lance's scan can express were pushed into the scan already: what is left needs the SQL engine.
      return Optional.of(input.get().with("filter", true));
    }
    if (rel instanceof Project) {
      Project project = (Project) rel;
      if (!PushableExpressions.all(project.getProjects())) {
        return Optional.empty();
      }
      boolean computed = project.getProjects().stream().anyMatch(e -> !(e instanceof RexInputRef));
      return Optional.of(input.get().with("project", computed));
    }
    if (rel instanceof Aggregate) {
      Aggregate aggregate = (Aggregate) rel;
      if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || !PushableExpressions.rowType(aggregate.getRowType())) {
        return Optional.empty();
      }
      for (AggregateCall call : aggregate.getAggCallList()) {
        if (!PushableExpressions.aggregate(call, aggregate.getInput().getRowType())) {
          return Optional.empty();
        }
      }
      return Optional.of(input.get().with("aggregate", true));
    }
    if (rel instanceof Sort) {
      Sort sort = (Sort) rel;
      if (!PushableExpressions.limit(sort.offset) || !PushableExpressions.limit(sort.fetch)) {
        return Optional.empty();
      }
      for (RelFieldCollation collation : sort.getCollation().getFieldCollations()) {
        if (!PushableExpressions.type(sort.getRowType().getFieldList().get(collation.getFieldIndex()).getType())) {
          return Optional.empty();
        }
      }
      Single sorted = input.get();
      if (!sort.getCollation().getFieldCollations().isEmpty()) {
        sorted = sorted.with("sort", true);
      }
      return Optional.of(sort.fetch == null && sort.offset == null ? sorted
          : sorted.with("limit", sort.offset != null));
    }
    return Optional.empty();
  }
}
