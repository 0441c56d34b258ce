package dev.lake.query.plan.vector;

import dev.lake.query.plan.lance.LanceTable;
import dev.lake.query.vector.VectorPlan;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;

/**
 * An aggregate over inner joins run by lake's vectorized executor ({@link VectorJoins}): its inputs are the build
 * sides, planned like any other subtree; the probe pipeline (scan of {@link #table}, filters, projections, probes,
 * aggregate, sort) is the compiled {@link #plan}. Logical (Convention.NONE); {@link EnumerableVectorJoin#RULE}
 * implements it.
 */
public final class VectorJoin extends VectorJoinNode {
  VectorJoin(RelOptCluster cluster, RelTraitSet traits, List<RelNode> builds, RelDataType rowType, LanceTable table,
      VectorPlan plan, String why, double rowCount, String subtree) {
    super(cluster, traits, builds, rowType, table, plan, why, rowCount, subtree);
  }

  static VectorJoin of(RelNode replaced, List<RelNode> builds, LanceTable table, VectorPlan plan, String why) {
    return new VectorJoin(replaced.getCluster(), replaced.getCluster().traitSetOf(Convention.NONE), builds,
        replaced.getRowType(), table, plan, why, replaced.getCluster().getMetadataQuery().getRowCount(replaced),
        RelOptUtil.toString(replaced, SqlExplainLevel.DIGEST_ATTRIBUTES));
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new VectorJoin(getCluster(), traits, inputs, rowType, table, plan, why, rowCount, subtree);
  }
}
