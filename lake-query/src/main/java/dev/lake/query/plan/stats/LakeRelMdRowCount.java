package dev.lake.query.plan.stats;

import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.RelMdRowCount;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Row counts as Calcite computes them, except for equi-joins: {@code |L| * |R| / max(ndv(L keys), ndv(R keys))} —
 * the textbook estimate — instead of a fixed 15% selectivity, so the join-order heuristics see that a join on a key
 * keeps the other side's size while a join on a low-cardinality column (TPC-H Q5's nation keys) multiplies rows.
 * Distinct counts come from the tables' column statistics ({@link dev.lake.query.plan.lance.LanceTable}); when they are
 * unknown, Calcite's
 * estimate stands.
 */
public final class LakeRelMdRowCount extends RelMdRowCount {
  /** This handler, to chain before Calcite's default metadata. */
  public static final RelMetadataProvider SOURCE = ReflectiveRelMetadataProvider.reflectiveSource(
      new LakeRelMdRowCount(), BuiltInMetadata.RowCount.Handler.class);

  private LakeRelMdRowCount() {}

  @Override
  public Double getRowCount(Join join, RelMetadataQuery mq) {
    Double fallback = super.getRowCount(join, mq);
    if (!join.getJoinType().projectsRight()) {
      return fallback;
    }
    JoinInfo info = join.analyzeCondition();
    if (info.leftKeys.isEmpty()) {
      return fallback;
    }
    Double left = mq.getRowCount(join.getLeft());
    Double right = mq.getRowCount(join.getRight());
    Double leftDistinct = mq.getDistinctRowCount(join.getLeft(), ImmutableBitSet.of(info.leftKeys), null);
    Double rightDistinct = mq.getDistinctRowCount(join.getRight(), ImmutableBitSet.of(info.rightKeys), null);
    if (left == null || right == null || leftDistinct == null || rightDistinct == null) {
      return fallback;
    }
    double matched = left * right / Math.max(1, Math.max(leftDistinct, rightDistinct));
    RexNode residual = RexUtil.composeConjunction(join.getCluster().getRexBuilder(), info.nonEquiConditions);
    if (!residual.isAlwaysTrue()) {
      matched *= RelMdUtil.guessSelectivity(residual);
    }
    switch (join.getJoinType()) {
      case LEFT:
        return Math.max(matched, left);
      case RIGHT:
        return Math.max(matched, right);
      case FULL:
        return Math.max(matched, left + right);
      default:
        return matched;
    }
  }
}
