package dev.lake.query.plan.vector;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;

/**
 * A build side that aggregates many groups of which the probe side can match few (TPC-H Q17: the average quantity of
 * each of 200,000 parts, joined with the 2,000 parts a filter keeps) aggregates only the rows whose group keys the
 * probe side holds: {@code Agg(X) JOIN P ON g = k} equals {@code Agg(X JOIN DISTINCT(P.k) ON g = k) JOIN P ON g = k}
 * when every join key of the aggregate's side is one of its group columns (all rows of a group share those values,
 * so each kept group keeps all its rows; NULL keys match nothing either way). The reduced input is a join itself and
 * is vectorized in turn.
 */
final class SemiJoinReduction {
  /** The probe side must be estimated at most this share of the aggregate's groups. */
  private static final double MAX_PROBE_SHARE = 0.5;

  private SemiJoinReduction() {}

  /**
   * {@code rel} without the SEMI and ANTI joins at its top: they only drop rows and keep their left input's columns,
   * so its keys are a superset of {@code rel}'s — enough to reduce by (a kept group the probe never matches changes
   * nothing) — and computing them does not run those joins' own build sides (and their reductions) once more. TPC-H
   * Q21's NOT EXISTS is then reduced by the outer join's orders, not by them after the EXISTS.
   */
  private static RelNode withoutSemiJoins(RelNode rel) {
    while (rel instanceof Join && ProbeJoins.SEMI_OR_ANTI.contains(((Join) rel).getJoinType())) {
      rel = ((Join) rel).getLeft();
    }
    return rel;
  }

  /**
   * {@code build} reduced by the keys of {@code probeSide}, or {@code build} itself when it is no aggregate keyed
   * by the join keys or the reduction would not pay.
   *
   * @param buildKeys the join's key columns of {@code build}; {@code probeKeys} those of {@code probeSide}
   */
  static RelNode reduce(RelNode build, int[] buildKeys, RelNode probeSide, int[] probeKeys) {
    probeSide = withoutSemiJoins(probeSide);
    if (build instanceof Project && build.getInput(0) instanceof Aggregate) {
      // Keys the projection passes through unchanged.
      Project project = (Project) build;
      int[] keys = new int[buildKeys.length];
      for (int k = 0; k < keys.length; k++) {
        RexNode expr = project.getProjects().get(buildKeys[k]);
        if (!(expr instanceof RexInputRef)) {
          return build;
        }
        keys[k] = ((RexInputRef) expr).getIndex();
      }
      RelNode reduced = reduce(project.getInput(), keys, probeSide, probeKeys);
      return reduced == project.getInput() ? build : project.copy(project.getTraitSet(), List.of(reduced));
    }
    if (!(build instanceof Aggregate)) {
      return build;
    }
    Aggregate aggregate = (Aggregate) build;
    int groups = aggregate.getGroupCount();
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || groups == 0) {
      return build;
    }
    for (int key : buildKeys) {
      if (key >= groups) {
        return build;
      }
    }
    RelMetadataQuery mq = build.getCluster().getMetadataQuery();
    Double probeRows = mq.getRowCount(probeSide);
    Double groupRows = mq.getRowCount(aggregate);
    if (probeRows == null || groupRows == null || probeRows > MAX_PROBE_SHARE * groupRows) {
      return build;
    }
    RelNode input = aggregate.getInput();
    int width = input.getRowType().getFieldCount();
    RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(build.getCluster(), null);
    builder.push(input);
    builder.push(probeSide).aggregate(builder.groupKey(probeKeys));
    List<RexNode> conditions = new ArrayList<>();
    for (int k = 0; k < buildKeys.length; k++) {
      int column = aggregate.getGroupSet().nth(buildKeys[k]);
      conditions.add(builder.equals(builder.field(2, 0, column), builder.field(2, 1, k)));
    }
    builder.join(JoinRelType.INNER, conditions);
    List<RexNode> kept = new ArrayList<>();
    for (int c = 0; c < width; c++) {
      kept.add(builder.field(c));
    }
    RelNode reduced = builder.project(kept).build();
    if (!reduced.getRowType().equals(input.getRowType())) {
      return build;
    }
    return aggregate.copy(aggregate.getTraitSet(), List.of(reduced));
  }
}
