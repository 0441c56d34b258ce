package dev.lake.query.plan.lance;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the maximal single-table subtrees — filters, projections, aggregates, sorts and limits over one
 * {@link LanceTableScan}, using only {@link PushableExpressions} — that are worth pushing down whole, because Lance's
 * scan alone could not do them (an aggregate, a sort, a computed column or a filter Lance's scan filter cannot
 * express), and writes each one's statement in Lance's SQL. Subtrees a scan does alone (stored columns, translatable
 * filter, limit) stay scans: a scan streams stored batches with late materialization. Which engine runs a found
 * subtree (Lance's SQL engine, the vectorized executor, or Calcite after all) is {@link
 * dev.lake.query.plan.EngineChoice}'s decision.
 */
public final class LancePushdown {
  private static final Logger LOG = LoggerFactory.getLogger(LancePushdown.class);

  private LancePushdown() {}

  /** Whether pushing down the single-table subtree {@code single} headed by {@code rel} gains anything. */
  public static boolean worthPushing(RelNode rel, Single single) {
    return single.worthSql && PushableExpressions.rowType(rel.getRowType());
  }

  /** The subtree's statement in Lance's SQL, or empty (logged) when none can be written for it. */
  public static Optional<String> sql(RelNode subtree, Single single) {
    try {
      return Optional.of(LanceSqlGenerator.sql(subtree));
    } catch (RuntimeException | AssertionError e) {
      Throwable cause = e;
      while (cause.getCause() != null && cause.getCause() != cause) {
        cause = cause.getCause();
      }
      LOG.warn("subtree not pushed: no Lance SQL could be written for it table={} error={}",
          single.scan.lanceTable().name(), cause.toString());
      return Optional.empty();
    }
  }

  /** The planner's estimate of the groups of the subtree's aggregate (its row count); 1 when it has none. */
  public static double estimatedGroups(RelNode subtree) {
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
  public record Single(LanceTableScan scan, boolean worthSql, List<String> pushed) {
    Single with(String operator, boolean worth) {
      List<String> operators = new ArrayList<>(pushed);
      if (operators.isEmpty() || !operators.get(operators.size() - 1).equals(operator)) {
        operators.add(operator);
      }
      return new Single(scan, worthSql || worth, operators);
    }
  }

  /** The single-table subtree {@code rel} heads, or empty when it heads none (its inputs may). */
  public static Optional<Single> single(RelNode rel) {
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
