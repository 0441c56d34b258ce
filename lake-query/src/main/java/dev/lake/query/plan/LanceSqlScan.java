package dev.lake.query.plan;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import dev.lake.query.vector.VectorPlan;
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
  private final Optional<VectorPlan> vector;
  private final String why;

  LanceSqlScan(RelOptCluster cluster, RelTraitSet traits, RelNode subtree, LanceTable table, String sql,
      List<String> pushed, Optional<VectorPlan> vector, String why) {
    super(cluster, traits, subtree);
    this.table = Objects.requireNonNull(table, "table");
    this.sql = Objects.requireNonNull(sql, "sql");
    this.pushed = List.copyOf(pushed);
    this.vector = Objects.requireNonNull(vector, "vector");
    this.why = Objects.requireNonNull(why, "why");
  }

  static LanceSqlScan of(RelNode subtree, LanceTable table, String sql, List<String> pushed,
      Optional<VectorPlan> vector, String why) {
    return new LanceSqlScan(subtree.getCluster(), subtree.getCluster().traitSetOf(Convention.NONE), subtree, table,
        sql, pushed, vector, why);
  }

  /** The subtree compiled for lake's vectorized executor, when the planner chose it; else Lance's SQL runs it. */
  public Optional<VectorPlan> vector() {
    return vector;
  }

  /** Why the planner chose the engine it chose (EXPLAIN shows it). */
  public String why() {
    return why;
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
    return new LanceSqlScan(getCluster(), traits, sole(inputs), table, sql, pushed, vector, why);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return explain(pw, table, pushed, sql, getInput(), vector.isPresent(), why);
  }

  /**
   * The terms both conventions show: the table, its version, what was pushed and the statement, and the fallback
   * (EXPLAIN hides it: {@link PushedDownPlan}).
   */
  static RelWriter explain(RelWriter pw, LanceTable table, List<String> pushed, String sql, RelNode fallback,
      boolean vectorized, String why) {
    return explainTerms(pw.input("fallback", fallback), table, pushed, sql, vectorized, why);
  }

  static RelWriter explainTerms(RelWriter pw, LanceTable table, List<String> pushed, String sql, boolean vectorized,
      String why) {
    return pw.item("table", table.name())
        .item("version", table.pin().version())
        .item("pushed", pushed)
        .item("engine", vectorized ? "vectorized" : "lance-sql")
        .item("why", why)
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
