package dev.lake.query.plan.vector;

import dev.lake.query.plan.lance.LanceTable;
import dev.lake.query.vector.VectorPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlExplainLevel;

/**
 * What the logical {@link VectorJoin} and the executable {@link EnumerableVectorJoin} share: the build sides as
 * inputs, the probe table, the compiled probe pipeline, the planner's reason, the estimated rows and the replaced
 * subtree (part of the digest, so two vectorized joins are equal only if their plans are).
 */
abstract class VectorJoinNode extends AbstractRelNode {
  protected final List<RelNode> builds;
  protected final RelDataType rowType;
  protected final LanceTable table;
  protected final VectorPlan plan;
  protected final String why;
  protected final double rowCount;
  protected final String subtree;

  VectorJoinNode(RelOptCluster cluster, RelTraitSet traits, List<RelNode> builds, RelDataType rowType,
      LanceTable table, VectorPlan plan, String why, double rowCount, String subtree) {
    super(cluster, traits);
    this.builds = new ArrayList<>(builds);
    this.rowType = rowType;
    this.table = Objects.requireNonNull(table, "table");
    this.plan = Objects.requireNonNull(plan, "plan");
    this.why = Objects.requireNonNull(why, "why");
    this.rowCount = rowCount;
    this.subtree = subtree;
  }

  /** The probe table. */
  public LanceTable table() {
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
  public RelWriter explainTerms(RelWriter pw) {
    RelWriter terms = super.explainTerms(pw);
    List<String> kinds = VectorJoins.joinKinds(plan);
    for (int i = 0; i < builds.size(); i++) {
      terms.input("build" + i, builds.get(i));
    }
    return terms.item("probe", table.name())
        .item("version", table.pin().version())
        .item("columns", plan.columns())
        .itemIf("filter", plan.lanceFilter().orElse(""), plan.lanceFilter().isPresent())
        .itemIf("joins", kinds, !kinds.stream().allMatch("inner"::equals))
        .item("engine", "vectorized")
        .item("why", why)
        .itemIf("subtree", subtree, terms.getDetailLevel() == SqlExplainLevel.DIGEST_ATTRIBUTES);
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
