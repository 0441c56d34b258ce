package dev.lake.query.plan;

import dev.lake.query.plan.lance.EnumerablePushedSubtree;
import dev.lake.query.plan.lance.PushedStatement;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlExplainLevel;

/**
 * The text EXPLAIN shows for a plan: Calcite's operator tree, where each subtree pushed down into Lance's SQL engine
 * is one {@code PushedSubtree} line (table, version, what was pushed, the statement) without the fallback Calcite
 * keeps for it.
 */
final class PushedDownPlan {
  private PushedDownPlan() {}

  static String text(RelNode rel) {
    return RelOptUtil.toString(withoutFallbacks(rel), SqlExplainLevel.EXPPLAN_ATTRIBUTES).strip();
  }

  private static RelNode withoutFallbacks(RelNode rel) {
    if (rel instanceof EnumerablePushedSubtree) {
      EnumerablePushedSubtree scan = (EnumerablePushedSubtree) rel;
      return new Shown(scan, scan.statement());
    }
    if (rel.getInputs().isEmpty()) {
      return rel;
    }
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode shown = withoutFallbacks(input);
      changed |= shown != input;
      inputs.add(shown);
    }
    return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
  }

  /** A pushed-down subtree as EXPLAIN shows it: a leaf. */
  private static final class Shown extends AbstractRelNode {
    private final RelDataType rowType;
    private final PushedStatement statement;

    Shown(RelNode scan, PushedStatement statement) {
      super(scan.getCluster(), scan.getTraitSet());
      this.rowType = scan.getRowType();
      this.statement = statement;
    }

    @Override
    protected RelDataType deriveRowType() {
      return rowType;
    }

    @Override
    public String getRelTypeName() {
      return "LanceSqlScan";
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
      return statement.explainTerms(pw);
    }
  }
}
