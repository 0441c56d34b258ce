package dev.lake.query.plan;

import dev.lake.query.plan.lance.LancePushdown;
import dev.lake.query.plan.lance.PushedSubtree;
import dev.lake.query.plan.lance.PushableExpressions;
import dev.lake.query.plan.lance.PushedStatement;
import dev.lake.query.plan.lance.SubtreeEngine;
import dev.lake.query.plan.vector.SemiJoinReduction;
import dev.lake.query.plan.vector.VectorJoins;
import dev.lake.query.plan.vector.VectorPlanner;
import dev.lake.query.vector.Unsupported;
import dev.lake.query.vector.VectorPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one step that decides which engine runs each part of a statement; {@link StatementPlanner} calls it once, on
 * the logical plan after join ordering. Its policy (docs/architecture.md, "Engine choice"), top-down from the root:
 * <ol>
 *   <li>With push-down off ({@code query.executor=calcite}, or {@link dev.lake.query.QueryOptions#subtreePushDown}
 *       false) nothing is pushed: Calcite's Enumerable runtime runs every operator over Lance scans.</li>
 *   <li>An aggregate over inner and outer equi-joins (decorrelated sub-queries among them) runs as a vectorized
 *       join ({@link VectorJoins}) — unless
 *       {@code query.executor=lance-sql} — when the vectorized executor supports all of its probe pipeline and every
 *       build side is estimated at most {@link VectorJoins#MAX_BUILD_ROWS} rows. Its build sides are chosen for in
 *       turn, like any other input.</li>
 *   <li>A maximal single-table subtree that does more than a scan could ({@link LancePushdown}) is pushed down
 *       whole: to the vectorized executor when it supports the subtree and {@code query.executor} is
 *       {@code vectorized}, or {@code auto} and the subtree's aggregate has at most {@code query.vectorized-max-groups}
 *       estimated groups ({@link dev.lake.query.QueryOptions#vectorizedMaxGroups}: the vectorized hash aggregate wins
 *       up to there; beyond, merging per-fragment partials of so many groups is left to Lance's SQL engine); otherwise to Lance's SQL engine — unless Lance's SQL would compute it inexactly
 *       ({@link PushableExpressions#inexactInLance}), and then Calcite runs it.</li>
 *   <li>Everything else — joins, set operations, correlations, what no rule above took — runs in Calcite's
 *       Enumerable runtime over Lance scans (with projections, filters and limits pushed into the scans, runtime
 *       filters for hash joins, {@link dev.lake.query.plan.runtime.RuntimeFilterPlanner}, and scans read through the
 *       vectorized executor's column cache where it can evaluate them,
 *       {@link dev.lake.query.plan.vector.ColumnCacheScans}). An aggregate such an inner join joins by (some of) its
 *       group keys first keeps only the groups the other input's keys can match
 *       ({@link SemiJoinReduction#reduceInputs}: TPC-H Q2's minimum cost per part, reduced to the parts the outer
 *       query's filter keeps), unless {@code query.executor=lance-sql}; the join's inputs are then chosen for like
 *       any other. A statement that is one Lance scan passes its batches through.</li>
 * </ol>
 * The one run-time fall-back: a subtree given to Lance's SQL engine that Lance rejects before its first row runs in
 * Calcite instead (the pushed node's input is that plan: {@link dev.lake.query.plan.lance.ScanSource#sqlRows}). The
 * result of the choice for
 * a whole statement is its {@link Engine}.
 */
public final class EngineChoice {
  private static final Logger LOG = LoggerFactory.getLogger(EngineChoice.class);
  private EngineChoice() {}

  /**
   * {@code rel} with each part given to the engine the policy chooses ({@code executor}: query.executor;
   * {@code maxGroups}: query.vectorized-max-groups).
   */
  public static RelNode choose(RelNode rel, SubtreeExecutor executor, long maxGroups) {
    if (executor == SubtreeExecutor.CALCITE) {
      return rel;
    }
    RelNode chosen = rel;
    if (executor != SubtreeExecutor.LANCE_SQL) {
      Optional<RelNode> join = VectorJoins.of(rel);
      if (join.isPresent()) {
        chosen = join.get();
      }
    }
    if (chosen == rel) {
      Optional<LancePushdown.Single> single = LancePushdown.single(rel);
      if (single.isPresent()) {
        return LancePushdown.worthPushing(rel, single.get()) ? pushDown(rel, single.get(), executor, maxGroups) : rel;
      }
      if (executor != SubtreeExecutor.LANCE_SQL && rel instanceof Join) {
        // An aggregate joined here by its group keys aggregates only the groups the other input can match.
        chosen = SemiJoinReduction.reduceInputs((Join) rel);
      }
    }
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : chosen.getInputs()) {
      RelNode rewritten = choose(input, executor, maxGroups);
      changed |= rewritten != input;
      inputs.add(rewritten);
    }
    return changed ? chosen.copy(chosen.getTraitSet(), inputs) : chosen;
  }

  /** The single-table subtree pushed down to the engine the policy picks, or unchanged (Calcite runs it). */
  private static RelNode pushDown(RelNode subtree, LancePushdown.Single single, SubtreeExecutor executor,
      long maxGroups) {
    Optional<String> sql = LancePushdown.sql(subtree, single);
    if (sql.isEmpty()) {
      return subtree;
    }
    SubtreeEngine engine = new SubtreeEngine.LanceSql();
    String why;
    if (executor == SubtreeExecutor.LANCE_SQL) {
      why = "query.executor=lance-sql";
    } else {
      try {
        VectorPlan compiled = VectorPlanner.compile(subtree, single.scan());
        double groups = LancePushdown.estimatedGroups(subtree);
        if (executor == SubtreeExecutor.AUTO && groups > maxGroups) {
          why = String.format(Locale.ROOT, "about %.0f groups: Lance's SQL engine aggregates many groups"
              + " faster (vectorized up to %d, query.vectorized-max-groups)", groups, maxGroups);
        } else {
          engine = new SubtreeEngine.Vectorized(compiled);
          why = executor == SubtreeExecutor.VECTORIZED ? "query.executor=vectorized"
              : String.format(Locale.ROOT, "aggregate of about %.0f groups over one table: fragments"
                  + " scanned once in parallel (filter kept in Lance only when sampled selectivity <= 5%%),"
                  + " aggregated on unscaled longs", groups);
        }
      } catch (Unsupported e) {
        why = "not vectorized: " + e.getMessage();
      }
    }
    if (engine instanceof SubtreeEngine.LanceSql) {
      String inexact = PushableExpressions.inexactInLance(subtree);
      if (inexact != null) {
        LOG.debug("subtree not pushed: Lance's SQL engine would compute {} table={}", inexact,
            single.scan().lanceTable().name());
        return subtree;
      }
    }
    return PushedSubtree.of(subtree, new PushedStatement(single.scan().lanceTable(), sql.get(), single.pushed(),
        engine, why));
  }
}
