package dev.lake.query.plan.stats;

import dev.lake.query.plan.lance.EnumerablePushedSubtree;
import dev.lake.query.plan.lance.PushedSubtree;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.RelMdDistinctRowCount;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Distinct counts as Calcite computes them, plus lake's pushed-down subtrees: a {@link PushedSubtree} has the distinct
 * values of the subtree it runs (its input), so joins over it are estimated like joins over that subtree.
 */
public final class LakeRelMdDistinctRowCount extends RelMdDistinctRowCount {
  /** This handler, to chain before Calcite's default metadata. */
  public static final RelMetadataProvider SOURCE = ReflectiveRelMetadataProvider.reflectiveSource(
      new LakeRelMdDistinctRowCount(), BuiltInMetadata.DistinctRowCount.Handler.class);

  private LakeRelMdDistinctRowCount() {}

  public Double getDistinctRowCount(PushedSubtree rel, RelMetadataQuery mq, ImmutableBitSet groupKey,
      RexNode predicate) {
    return mq.getDistinctRowCount(rel.getInput(), groupKey, predicate);
  }

  public Double getDistinctRowCount(EnumerablePushedSubtree rel, RelMetadataQuery mq, ImmutableBitSet groupKey,
      RexNode predicate) {
    return mq.getDistinctRowCount(rel.getInput(), groupKey, predicate);
  }
}
