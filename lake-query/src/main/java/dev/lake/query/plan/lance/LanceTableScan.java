package dev.lake.query.plan.lance;

import dev.lake.query.plan.types.RowShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import dev.lake.query.vector.CachedScan;
import dev.lake.query.vector.VectorPlan;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableIntList;

/**
 * A scan of one pinned Lance table with what was pushed into it: a projection of stored columns, a Lance filter
 * and a limit. In the Enumerable convention it reads rows through the {@link ScanSource} the execution binds to its
 * table reference; when it is the whole plan, the executor streams Lance's own batches instead (pass-through).
 */
public final class LanceTableScan extends TableScan implements EnumerableRel {
  private final LanceTable lanceTable;
  private final ImmutableIntList projects;
  private final Optional<String> filter;
  private final Optional<RexNode> condition;
  private final Optional<Long> limit;
  private final List<RuntimeFilter> runtimeFilters;
  /** How this scan reads the vectorized executor's column cache, when it may ({@link #withColumnCache}). */
  private final Optional<CacheRead> columnCache;

  /**
   * This scan for the vectorized executor's column cache: the cached scan and the representation of each output
   * column in the row runtime.
   */
  public record CacheRead(CachedScan scan, List<VectorPlan.Output> types) {
    public CacheRead {
      java.util.Objects.requireNonNull(scan, "scan");
      types = List.copyOf(types);
    }
  }

  private LanceTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, LanceTable lanceTable,
      ImmutableIntList projects, Optional<String> filter, Optional<RexNode> condition, Optional<Long> limit,
      List<RuntimeFilter> runtimeFilters) {
    this(cluster, traits, table, lanceTable, projects, filter, condition, limit, runtimeFilters, Optional.empty());
  }

  private LanceTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, LanceTable lanceTable,
      ImmutableIntList projects, Optional<String> filter, Optional<RexNode> condition, Optional<Long> limit,
      List<RuntimeFilter> runtimeFilters, Optional<CacheRead> columnCache) {
    super(cluster, traits, List.of(), table);
    this.columnCache = columnCache;
    this.lanceTable = lanceTable;
    this.projects = projects;
    this.filter = filter;
    this.condition = condition;
    this.limit = limit;
    this.runtimeFilters = List.copyOf(runtimeFilters);
  }

  /** A scan of every stored column, nothing pushed yet. */
  static LanceTableScan of(RelOptCluster cluster, RelOptTable table, LanceTable lanceTable) {
    return new LanceTableScan(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), table, lanceTable,
        ImmutableIntList.identity(lanceTable.fields().size()), Optional.empty(), Optional.empty(), Optional.empty(),
        List.of());
  }

  public LanceTable lanceTable() {
    return lanceTable;
  }

  /**
   * The scalar indexes of the pinned version that Lance's scanner can use for this scan's pushed filter
   * ({@link IndexUse}); EXPLAIN lists them as {@code index=[name TYPE, ...]}.
   */
  public List<dev.lake.query.model.ColumnIndex> usedIndexes() {
    return condition.map(c -> IndexUse.used(c, lanceTable.fields(), lanceTable.indexes())).orElse(List.of());
  }

  /** Indexes of the stored columns this scan returns, in output order. */
  public ImmutableIntList projects() {
    return projects;
  }

  public Optional<String> filter() {
    return filter;
  }

  /** The pushed filter as a condition over the stored columns (what {@link #filter()} says in Lance's dialect). */
  public Optional<RexNode> condition() {
    return condition;
  }

  public Optional<Long> limit() {
    return limit;
  }

  /** Whether nothing was pushed into this scan yet: every stored column, no filter, no limit. */
  public boolean bare() {
    return filter.isEmpty() && limit.isEmpty()
        && projects.equals(ImmutableIntList.identity(lanceTable.fields().size()));
  }

  /** This table scanned with nothing pushed. */
  LanceTableScan asBare() {
    return new LanceTableScan(getCluster(), traitSet, table, lanceTable,
        ImmutableIntList.identity(lanceTable.fields().size()), Optional.empty(), Optional.empty(), Optional.empty(),
        List.of());
  }

  /** The stored fields this scan returns, in output order. */
  public List<Field> outputFields() {
    List<Field> stored = lanceTable.fields();
    List<Field> fields = new ArrayList<>(projects.size());
    for (int index : projects) {
      fields.add(stored.get(index));
    }
    return fields;
  }

  /** The stored column names this scan returns, in output order. */
  public List<String> columnNames() {
    List<String> names = new ArrayList<>(projects.size());
    for (Field field : outputFields()) {
      names.add(field.getName());
    }
    return names;
  }

  LanceTableScan withProjects(ImmutableIntList newProjects) {
    return new LanceTableScan(getCluster(), traitSet, table, lanceTable, newProjects, filter, condition, limit,
        runtimeFilters);
  }

  /**
   * This scan with another filter pushed.
   *
   * @param newFilter the whole filter, in Lance's dialect
   * @param newCondition the whole filter as a condition over the stored columns
   */
  LanceTableScan withFilter(String newFilter, RexNode newCondition) {
    return new LanceTableScan(getCluster(), traitSet, table, lanceTable, projects, Optional.of(newFilter),
        Optional.of(newCondition), limit, runtimeFilters);
  }

  LanceTableScan withLimit(long newLimit) {
    return new LanceTableScan(getCluster(), traitSet, table, lanceTable, projects, filter, condition,
        Optional.of(newLimit), runtimeFilters);
  }

  /** Filters this scan takes at run time from join keys collected above it. */
  public List<RuntimeFilter> runtimeFilters() {
    return runtimeFilters;
  }

  public LanceTableScan withRuntimeFilters(List<RuntimeFilter> filters) {
    return new LanceTableScan(getCluster(), traitSet, table, lanceTable, projects, filter, condition, limit, filters);
  }

  /** How this scan reads the column cache, when the planner let it ({@link
   * dev.lake.query.plan.vector.ColumnCacheScans}). */
  public Optional<CacheRead> columnCache() {
    return columnCache;
  }

  /** This scan reading the column cache as {@code read} says (empty: reading Lance). */
  public LanceTableScan withColumnCache(Optional<CacheRead> read) {
    return new LanceTableScan(getCluster(), traitSet, table, lanceTable, projects, filter, condition, limit,
        runtimeFilters, read);
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return traits.equals(traitSet) ? this
        : new LanceTableScan(getCluster(), traits, table, lanceTable, projects, filter, condition, limit,
            runtimeFilters, columnCache);
  }

  @Override
  public RelDataType deriveRowType() {
    List<RelDataTypeField> stored = table.getRowType().getFieldList();
    RelDataTypeFactory.Builder builder = getCluster().getTypeFactory().builder();
    for (int index : projects) {
      builder.add(stored.get(index));
    }
    return builder.build();
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("version", lanceTable.pin().version())
        .item("columns", columnNames())
        .itemIf("filter", filter.orElse(""), filter.isPresent())
        .itemIf("index", usedIndexes().stream().map(Object::toString)
            .collect(java.util.stream.Collectors.joining(", ")), !usedIndexes().isEmpty())
        .itemIf("limit", limit.orElse(0L), limit.isPresent())
        .itemIf("runtimeFilters", runtimeFilters, !runtimeFilters.isEmpty());
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    double rows = filter.isPresent() ? super.estimateRowCount(mq) / 4 : super.estimateRowCount(mq);
    return limit.map(l -> Math.min((double) l, rows)).orElse(rows);
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    RelOptCost cost = super.computeSelfCost(planner, mq);
    double columnFactor = (projects.size() + 2D) / (table.getRowType().getFieldCount() + 2D);
    return cost == null ? null : cost.multiplyBy(columnFactor);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
    RowShape shape;
    switch (physType.getFormat()) {
      case SCALAR:
        shape = RowShape.SCALAR;
        break;
      case ARRAY:
        shape = RowShape.ARRAY;
        break;
      case LIST:
        shape = RowShape.LIST;
        break;
      default:
        throw new IllegalStateException("unexpected row format " + physType.getFormat());
    }
    Expression call = implementor.stash(new LanceScanCall(lanceTable.reference().key(), columnNames(), filter, limit,
        shape, runtimeFilters, columnCache.map(CacheRead::scan),
        columnCache.map(CacheRead::types).orElse(List.of())), LanceScanCall.class);
    return implementor.result(physType, Blocks.toBlock(Expressions.call(call, "enumerable", DataContext.ROOT)));
  }
}
