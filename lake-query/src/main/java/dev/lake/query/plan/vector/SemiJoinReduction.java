package dev.lake.query.plan.vector;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
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
public final class SemiJoinReduction {
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
   * {@code join} with each input that is an aggregate keyed by (some of) the join keys reduced by the keys of the
   * other input ({@link #reduce}): what {@link dev.lake.query.plan.EngineChoice} does for an inner join Calcite's
   * runtime runs, so that an aggregate under it (TPC-H Q2's decorrelated {@code min(ps_supplycost)} per part, 100,000
   * and more groups, joined with the few hundred parts the outer filter keeps) aggregates only the groups the join can
   * match. {@code join} itself when nothing is reduced.
   */
  public static RelNode reduceInputs(Join join) {
    if (join.getJoinType() != JoinRelType.INNER) {
      return join;
    }
    JoinInfo info = JoinInfo.createWithStrictEquality(join.getLeft(), join.getRight(), join.getCondition());
    if (info.leftKeys.isEmpty()) {
      return join;
    }
    int[] leftKeys = info.leftKeys.toIntArray();
    int[] rightKeys = info.rightKeys.toIntArray();
    RelNode left = reduce(join.getLeft(), leftKeys, join.getRight(), rightKeys);
    RelNode right = reduce(join.getRight(), rightKeys, join.getLeft(), leftKeys);
    if (left == join.getLeft() && right == join.getRight()) {
      return join;
    }
    return join.copy(join.getTraitSet(), List.of(left, right));
  }

  /**
   * {@code build} reduced by the keys of {@code probeSide}, or {@code build} itself when it is no aggregate keyed
   * by some of the join keys or the reduction would not pay. Only the key pairs whose column of {@code build} is a
   * group column reduce (TPC-H Q2 joins its aggregate on {@code p_partkey = ps_partkey AND ps_supplycost = min}: the
   * groups are kept by part key); the others still decide the join's matches afterwards. The keys are taken from
   * the smallest subtree of {@code probeSide} that holds all of them ({@link #keySources}).
   *
   * @param buildKeys the join's key columns of {@code build}; {@code probeKeys} those of {@code probeSide}
   */
  static RelNode reduce(RelNode build, int[] buildKeys, RelNode probeSide, int[] probeKeys) {
    probeSide = withoutSemiJoins(probeSide);
    if (build instanceof Project && build.getInput(0) instanceof Aggregate) {
      // Keys the projection passes through unchanged; a computed one does not reduce.
      Project project = (Project) build;
      List<Integer> kept = new ArrayList<>();
      for (int k = 0; k < buildKeys.length; k++) {
        if (project.getProjects().get(buildKeys[k]) instanceof RexInputRef) {
          kept.add(k);
        }
      }
      int[] keys = new int[kept.size()];
      int[] probes = new int[kept.size()];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = ((RexInputRef) project.getProjects().get(buildKeys[kept.get(i)])).getIndex();
        probes[i] = probeKeys[kept.get(i)];
      }
      RelNode reduced = keys.length == 0 ? project.getInput() : reduce(project.getInput(), keys, probeSide, probes);
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
    List<Integer> grouped = new ArrayList<>();
    for (int k = 0; k < buildKeys.length; k++) {
      if (buildKeys[k] < groups) {
        grouped.add(k);
      }
    }
    if (grouped.isEmpty()) {
      return build;
    }
    int[] groupKeys = new int[grouped.size()];
    int[] sourceKeys = new int[grouped.size()];
    for (int i = 0; i < groupKeys.length; i++) {
      groupKeys[i] = buildKeys[grouped.get(i)];
      sourceKeys[i] = probeKeys[grouped.get(i)];
    }
    RelMetadataQuery mq = build.getCluster().getMetadataQuery();
    KeySource source = null;
    Double sourceRows = null;
    for (KeySource candidate : keySources(probeSide, sourceKeys, new ArrayList<>())) {
      Double rows = mq.getRowCount(candidate.rel());
      if (rows != null && (sourceRows == null || rows < sourceRows)) {
        source = candidate;
        sourceRows = rows;
      }
    }
    Double groupRows = mq.getRowCount(aggregate);
    if (source == null || groupRows == null || sourceRows > MAX_PROBE_SHARE * groupRows) {
      return build;
    }
    RelNode input = aggregate.getInput();
    int width = input.getRowType().getFieldCount();
    RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(build.getCluster(), null);
    builder.push(input);
    builder.push(source.rel()).aggregate(builder.groupKey(source.keys()));
    List<RexNode> conditions = new ArrayList<>();
    for (int k = 0; k < groupKeys.length; k++) {
      int column = aggregate.getGroupSet().nth(groupKeys[k]);
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

  /** A subtree whose distinct values of {@code keys} include every value the probe side's key columns hold. */
  private record KeySource(RelNode rel, int[] keys) {}

  /**
   * {@code rel} with {@code keys}, and every subtree below it that holds a superset of those key values: the input
   * of a filter, of a projection passing the keys through, of an inner join (or the left input of a semi or anti
   * join) whose one input holds all the keys. TPC-H Q2's part keys come from {@code partsupp JOIN part}, and the
   * filtered part scan alone holds them, without the join.
   */
  private static List<KeySource> keySources(RelNode rel, int[] keys, List<KeySource> out) {
    out.add(new KeySource(rel, keys));
    if (rel instanceof Filter) {
      return keySources(rel.getInput(0), keys, out);
    }
    if (rel instanceof Project) {
      List<RexNode> projects = ((Project) rel).getProjects();
      int[] below = new int[keys.length];
      for (int k = 0; k < keys.length; k++) {
        if (!(projects.get(keys[k]) instanceof RexInputRef)) {
          return out;
        }
        below[k] = ((RexInputRef) projects.get(keys[k])).getIndex();
      }
      return keySources(rel.getInput(0), below, out);
    }
    if (rel instanceof Join) {
      Join join = (Join) rel;
      JoinRelType type = join.getJoinType();
      int leftWidth = join.getLeft().getRowType().getFieldCount();
      boolean allLeft = java.util.Arrays.stream(keys).allMatch(k -> k < leftWidth);
      boolean allRight = java.util.Arrays.stream(keys).allMatch(k -> k >= leftWidth);
      if ((type == JoinRelType.INNER || ProbeJoins.SEMI_OR_ANTI.contains(type)) && allLeft) {
        return keySources(join.getLeft(), keys, out);
      }
      if (type == JoinRelType.INNER && allRight) {
        return keySources(join.getRight(), java.util.Arrays.stream(keys).map(k -> k - leftWidth).toArray(), out);
      }
    }
    return out;
  }
}
