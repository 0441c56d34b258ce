package dev.lake.query.plan;

import dev.lake.query.vector.VectorPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

/**
 * An aggregate over inner joins run by lake's vectorized executor ({@link VectorJoins}): its inputs are the build
 * sides, planned like any other subtree; the probe pipeline (scan of {@link #table}, filters, projections, probes,
 * aggregate, sort) is the compiled {@link #plan}. Logical (Convention.NONE); {@link EnumerableVectorJoin#RULE}
 * implements it.
 */
public final class VectorJoin extends AbstractRelNode {
  private final List<RelNode> builds;
  private final RelDataType rowType;
  private final LanceTable table;
  private final VectorPlan plan;
  private final String why;
  private final double rowCount;
  /** The replaced subtree as text: part of the digest, so two vectorized joins are equal only if their plans are. */
  private final String subtree;

  VectorJoin(RelOptCluster cluster, RelTraitSet traits, List<RelNode> builds, RelDataType rowType, LanceTable table,
      VectorPlan plan, String why, double rowCount, String subtree) {
    super(cluster, traits);
    this.rowCount = rowCount;
    this.subtree = subtree;
    this.builds = new ArrayList<>(builds);
    this.rowType = rowType;
    this.table = Objects.requireNonNull(table, "table");
    this.plan = Objects.requireNonNull(plan, "plan");
    this.why = Objects.requireNonNull(why, "why");
  }

  static VectorJoin of(RelNode replaced, List<RelNode> builds, LanceTable table, VectorPlan plan, String why) {
    return new VectorJoin(replaced.getCluster(), replaced.getCluster().traitSetOf(Convention.NONE), builds,
        replaced.getRowType(), table, plan, why, replaced.getCluster().getMetadataQuery().getRowCount(replaced),
        RelOptUtil.toString(replaced, SqlExplainLevel.DIGEST_ATTRIBUTES));
  }

  LanceTable table() {
    return table;
  }

  String subtree() {
    return subtree;
  }

  double rowCount() {
    return rowCount;
  }

  VectorPlan plan() {
    return plan;
  }

  String why() {
    return why;
  }

  @Override
  public List<RelNode> getInputs() {
    return builds;
  }

  @Override
  public void replaceInput(int ordinalInParent, RelNode p) {
    builds.set(ordinalInParent, p);
    recomputeDigest();
  }

  @Override
  protected RelDataType deriveRowType() {
    return rowType;
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new VectorJoin(getCluster(), traits, inputs, rowType, table, plan, why, rowCount, subtree);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return explain(super.explainTerms(pw), builds, table, plan, why, subtree);
  }

  /** The terms the logical and executable nodes show in EXPLAIN. */
  static RelWriter explain(RelWriter pw, List<RelNode> builds, LanceTable table, VectorPlan plan, String why,
      String subtree) {
    for (int i = 0; i < builds.size(); i++) {
      pw.input("build" + i, builds.get(i));
    }
    return pw.item("probe", table.name())
        .item("version", table.pin().version())
        .item("columns", plan.columns())
        .itemIf("filter", plan.lanceFilter().orElse(""), plan.lanceFilter().isPresent())
        .item("engine", "vectorized")
        .item("why", why)
        .itemIf("subtree", subtree, pw.getDetailLevel() == SqlExplainLevel.DIGEST_ATTRIBUTES);
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return rowCount;
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeTinyCost();
  }
}
