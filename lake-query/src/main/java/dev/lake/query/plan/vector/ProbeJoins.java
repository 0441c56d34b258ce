package dev.lake.query.plan.vector;

import dev.lake.query.vector.Col;
import dev.lake.query.vector.Expr;
import dev.lake.query.vector.JoinSpec;
import dev.lake.query.vector.Kind;
import dev.lake.query.vector.Op;
import dev.lake.query.vector.OuterProbe;
import dev.lake.query.vector.SemiProbe;
import dev.lake.query.vector.Unsupported;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * Turns the inner equi-joins on the path from a vectorized plan's top to its probe scan into {@link Op.Probe}s: the
 * input of each join that leads to the probe scan stays in the pipeline, the other one becomes a build side (collected
 * here in slot order). A join condition's non-equi remainder becomes a filter after the probe. An outer join (LEFT,
 * RIGHT, FULL, the probe on either side) becomes an {@link OuterProbe}, its non-equi remainder deciding which pairs
 * match. A SEMI or ANTI join probed from its left input becomes a {@link SemiProbe}, its non-equi remainder checked
 * on each candidate build row; only the probe columns go on. A join without an equality between its inputs is run
 * only against a build side of at most one row (a scalar sub-query). Anything else — a semi or anti join whose probe
 * scan is on its right, no equi key, keys of different kinds or decimal scales, build columns of unsupported types —
 * is {@link Unsupported}.
 */
final class ProbeJoins {
  private final RelNode probeScan;
  private final List<RelNode> builds = new ArrayList<>();

  ProbeJoins(RelNode probeScan) {
    this.probeScan = probeScan;
  }

  /** The build sides, in slot order. */
  List<RelNode> builds() {
    return builds;
  }

  /**
   * The input (0 or 1) of {@code join} whose pipeline (filters, projections, inner joins) reaches the probe scan. The
   * planner shares equal subtrees, so the scan may be reachable from both inputs (a self-join): the left one is then
   * the probe side, consistently, and the right one a build side computing the same rows independently.
   */
  int probeInput(Join join) {
    return reaches(join.getLeft(), probeScan) ? 0 : 1;
  }

  /** The operators that run a join on the pipeline, and the column shapes after them. */
  record Step(List<Op> ops, List<Col> shapes) {}

  Step probe(Join join, List<Col> probeShapes, RexBuilder rexBuilder) throws Unsupported {
    JoinRelType type = join.getJoinType();
    boolean semi = SEMI_OR_ANTI.contains(type);
    if (!OUTER_OR_INNER.contains(type) && !semi) {
      throw new Unsupported(type + " join");
    }
    boolean probeLeft = probeInput(join) == 0;
    if (semi && !probeLeft) {
      throw new Unsupported(type + " join probed from its right input");
    }
    RelNode build = probeLeft ? join.getRight() : join.getLeft();
    // Which side's unmatched rows an outer join keeps, seen from the probe.
    boolean keepProbe = type == JoinRelType.FULL || type == (probeLeft ? JoinRelType.LEFT : JoinRelType.RIGHT);
    boolean keepBuild = type == JoinRelType.FULL || type == (probeLeft ? JoinRelType.RIGHT : JoinRelType.LEFT);
    JoinInfo info = JoinInfo.createWithStrictEquality(join.getLeft(), join.getRight(), join.getCondition());
    if (info.leftKeys.isEmpty() && !singleRow(build)) {
      throw new Unsupported("a join without an equality between its inputs");
    }
    List<Col> buildShapes = new ArrayList<>();
    for (RelDataTypeField field : build.getRowType().getFieldList()) {
      buildShapes.add(ExprCompiler.shape(field.getType()));
    }
    int[] probeKeys = (probeLeft ? info.leftKeys : info.rightKeys).toIntArray();
    int[] buildKeys = (probeLeft ? info.rightKeys : info.leftKeys).toIntArray();
    for (int k = 0; k < probeKeys.length; k++) {
      Col probe = probeShapes.get(probeKeys[k]);
      Col built = buildShapes.get(buildKeys[k]);
      if (probe.kind() != built.kind() || probe.scale() != built.scale() || probe.kind() == Kind.BOOL) {
        throw new Unsupported("join keys of different types (" + probe.kind() + "/" + probe.scale() + " and "
            + built.kind() + "/" + built.scale() + ")");
      }
    }
    int slot = builds.size();
    if (!keepBuild || semi) {
      // Build rows no probe row matches are never needed, so the build side may keep only the matching ones.
      build = SemiJoinReduction.reduce(build, buildKeys, probeLeft ? join.getLeft() : join.getRight(), probeKeys);
    }
    RelNode joined = VectorJoins.joinedBuild(build);
    builds.add(joined == null ? build : joined);
    List<Op> ops = new ArrayList<>();
    JoinSpec spec = new JoinSpec(slot, probeKeys, buildKeys, buildShapes.toArray(new Col[0]), probeLeft,
        probeShapes.size());
    List<Col> shapes = new ArrayList<>(probeLeft ? probeShapes : buildShapes);
    shapes.addAll(probeLeft ? buildShapes : probeShapes);
    RexNode remaining = RexUtil.composeConjunction(rexBuilder, info.nonEquiConditions);
    Op.Filter residual = null;
    if (!remaining.isAlwaysTrue()) {
      ExprCompiler compiler = new ExprCompiler(rexBuilder, shapes);
      List<Expr> conjuncts = new ArrayList<>();
      for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.expandSearch(rexBuilder, null, remaining))) {
        conjuncts.add(compiler.compile(conjunct));
      }
      residual = new Op.Filter(conjuncts);
    }
    if (semi) {
      // Only the probe's columns come out; the residual decides which candidate build rows match.
      ops.add(new SemiProbe(spec, residual == null ? List.of() : residual.conjuncts(), type == JoinRelType.ANTI));
      return new Step(ops, new ArrayList<>(probeShapes));
    }
    if (type == JoinRelType.INNER) {
      ops.add(new Op.Probe(spec, null));
      if (residual != null) {
        ops.add(residual);
      }
    } else {
      // An outer join's residual decides which pairs match; a row left without one is NULL-extended.
      ops.add(new OuterProbe(spec, probeShapes.toArray(new Col[0]), residual, keepProbe, keepBuild,
          keepProbe && keepBuild ? "full-outer" : keepProbe ? "probe-outer" : "build-outer"));
    }
    return new Step(ops, shapes);
  }

  /** The join types a probe runs: inner, and outer joins of either side (docs/architecture.md). */
  static final java.util.Set<JoinRelType> OUTER_OR_INNER = java.util.EnumSet.of(JoinRelType.INNER,
      JoinRelType.LEFT, JoinRelType.RIGHT, JoinRelType.FULL);

  /** The join types that keep each probe row at most once, without build columns: EXISTS and NOT EXISTS. */
  static final java.util.Set<JoinRelType> SEMI_OR_ANTI = java.util.EnumSet.of(JoinRelType.SEMI, JoinRelType.ANTI);

  /** Whether {@code build} has at most one row whatever the data (a global aggregate: a scalar sub-query). */
  private static boolean singleRow(RelNode build) {
    Double max = build.getCluster().getMetadataQuery().getMaxRowCount(build);
    return max != null && max <= 1;
  }

  /** Whether {@code scan} is reached from {@code rel} through filters, projections and inner joins only. */
  static boolean reaches(RelNode rel, RelNode scan) {
    if (rel == scan) {
      return true;
    }
    if (rel instanceof Join) {
      JoinRelType type = ((Join) rel).getJoinType();
      return SEMI_OR_ANTI.contains(type) ? reaches(((Join) rel).getLeft(), scan) : OUTER_OR_INNER.contains(type)
          && (reaches(((Join) rel).getLeft(), scan) || reaches(((Join) rel).getRight(), scan));
    }
    if (rel instanceof org.apache.calcite.rel.core.Filter || rel instanceof org.apache.calcite.rel.core.Project) {
      return reaches(rel.getInput(0), scan);
    }
    return false;
  }
}
