package dev.lake.query.plan;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * A single-table subtree pushed down whole into Lance's SQL engine: one statement ({@link #sql()}) run on the pinned
 * version of {@link #table()}. Its input is the subtree itself, kept as the fallback that Calcite runs instead if
 * Lance rejects the statement; EXPLAIN shows the statement and what was pushed, not the fallback. Logical
 * (Convention.NONE); {@link EnumerableLanceSqlScan#RULE} implements it.
 */
public final class LanceSqlScan extends SingleRel {
  private final LanceTable table;
  private final String sql;
  private final List<String> pushed;

  LanceSqlScan(RelOptCluster cluster, RelTraitSet traits, RelNode subtree, LanceTable table, String sql,
      List<String> pushed) {
    super(cluster, traits, subtree);
    this.table = Objects.requireNonNull(table, "table");
    this.sql = Objects.requireNonNull(sql, "sql");
    this.pushed = List.copyOf(pushed);
  }

  static LanceSqlScan of(RelNode subtree, LanceTable table, String sql, List<String> pushed) {
    return new LanceSqlScan(subtree.getCluster(), subtree.getCluster().traitSetOf(Convention.NONE), subtree, table,
        sql, pushed);
  }

  public LanceTable table() {
    return table;
  }

  /** The statement Lance runs (the table is named {@link ScanSource#SQL_TABLE}). */
  public String sql() {
    return sql;
  }

  /** What the statement does, in the order of the subtree from the scan up: filter, project, aggregate, sort, limit. */
  public List<String> pushed() {
    return pushed;
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new LanceSqlScan(getCluster(), traits, sole(inputs), table, sql, pushed);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return explain(pw, table, pushed, sql, getInput());
  }

  /**
   * The terms both conventions show: the table, its version, what was pushed and the statement, and the fallback
   * (EXPLAIN hides it: {@link PushedDownPlan}).
   */
  static RelWriter explain(RelWriter pw, LanceTable table, List<String> pushed, String sql, RelNode fallback) {
    return explainTerms(pw.input("fallback", fallback), table, pushed, sql);
  }

  static RelWriter explainTerms(RelWriter pw, LanceTable table, List<String> pushed, String sql) {
    return pw.item("table", table.name())
        .item("version", table.pin().version())
        .item("pushed", pushed)
        .item("sql", sql);
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return mq.getRowCount(getInput());
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeTinyCost();
  }
}
