package dev.lake.query.plan.vector;

import dev.lake.query.vector.Col;
import dev.lake.query.vector.Expr;
import dev.lake.query.vector.JoinSpec;
import dev.lake.query.vector.Kind;
import dev.lake.query.vector.Op;
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
 * here in slot order). A join condition's non-equi remainder becomes a filter after the probe. Anything else — outer,
 * semi or anti joins, no equi key, keys of different kinds or decimal scales, build columns of unsupported types — is
 * {@link Unsupported}.
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
    if (join.getJoinType() != JoinRelType.INNER) {
      throw new Unsupported(join.getJoinType() + " join");
    }
    boolean probeLeft = probeInput(join) == 0;
    RelNode build = probeLeft ? join.getRight() : join.getLeft();
    JoinInfo info = JoinInfo.createWithStrictEquality(join.getLeft(), join.getRight(), join.getCondition());
    if (info.leftKeys.isEmpty()) {
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
    build = SemiJoinReduction.reduce(build, buildKeys, probeLeft ? join.getLeft() : join.getRight(), probeKeys);
    RelNode counted = VectorJoins.countedBuild(build);
    builds.add(counted == null ? build : counted);
    List<Op> ops = new ArrayList<>();
    ops.add(new Op.Probe(new JoinSpec(slot, probeKeys, buildKeys, buildShapes.toArray(new Col[0]), probeLeft,
        probeShapes.size(), counted != null), null));
    List<Col> shapes = new ArrayList<>(probeLeft ? probeShapes : buildShapes);
    shapes.addAll(probeLeft ? buildShapes : probeShapes);
    RexNode remaining = RexUtil.composeConjunction(rexBuilder, info.nonEquiConditions);
    if (!remaining.isAlwaysTrue()) {
      ExprCompiler compiler = new ExprCompiler(rexBuilder, shapes);
      List<Expr> conjuncts = new ArrayList<>();
      for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.expandSearch(rexBuilder, null, remaining))) {
        conjuncts.add(compiler.compile(conjunct));
      }
      ops.add(new Op.Filter(conjuncts));
    }
    return new Step(ops, shapes);
  }

  /** Whether {@code scan} is reached from {@code rel} through filters, projections and inner joins only. */
  static boolean reaches(RelNode rel, RelNode scan) {
    if (rel == scan) {
      return true;
    }
    if (rel instanceof Join) {
      return ((Join) rel).getJoinType() == JoinRelType.INNER
          && (reaches(((Join) rel).getLeft(), scan) || reaches(((Join) rel).getRight(), scan));
    }
    if (rel instanceof org.apache.calcite.rel.core.Filter || rel instanceof org.apache.calcite.rel.core.Project) {
      return reaches(rel.getInput(0), scan);
    }
    return false;
  }
}
