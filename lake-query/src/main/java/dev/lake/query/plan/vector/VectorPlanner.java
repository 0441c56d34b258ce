package dev.lake.query.plan.vector;

import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.vector.AggSpec;
import dev.lake.query.vector.CachedScan;
import dev.lake.query.vector.Col;
import dev.lake.query.vector.Expr;
import dev.lake.query.vector.Op;
import dev.lake.query.vector.Unsupported;
import dev.lake.query.vector.VectorPlan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableIntList;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Compiles a single-table subtree — [sort/limit] over filters and projections over one aggregate over filters and
 * projections over a {@link LanceTableScan} — into a {@link VectorPlan}, or says why it cannot
 * ({@link Unsupported}). With {@link ProbeJoins}, the path from the top to the scan may also pass inner equi-joins,
 * which become probes of hash tables built from their other inputs ({@link VectorJoins}).
 */
public final class VectorPlanner {
  private VectorPlanner() {}

  public static VectorPlan compile(RelNode subtree, LanceTableScan scan) throws Unsupported {
    return compile(subtree, scan, null);
  }

  /**
   * Compiles a subtree whose path from the top to {@code scan} may pass inner joins: {@code joins} says which input of
   * each join leads to the scan and turns the join into probe operators (null: a single-table subtree).
   */
  static VectorPlan compile(RelNode subtree, LanceTableScan scan, ProbeJoins joins) throws Unsupported {
    return compile(subtree, scan, joins, false);
  }

  /**
   * {@link #compile(RelNode, LanceTableScan, ProbeJoins)}, or with {@code rowsOnly} a subtree of filters, projections
   * and joins only, compiled into a {@link VectorPlan#rowsOnly() rows-only} plan: its rows are the result, ungrouped.
   */
  static VectorPlan compile(RelNode subtree, LanceTableScan scan, ProbeJoins joins, boolean rowsOnly)
      throws Unsupported {
    List<RelNode> chain = new ArrayList<>();
    for (RelNode rel = subtree; rel != scan;
        rel = joins != null && rel instanceof Join ? rel.getInput(joins.probeInput((Join) rel)) : rel.getInput(0)) {
      chain.add(rel);
    }
    Collections.reverse(chain);
    if (scan.limit().isPresent() || !scan.runtimeFilters().isEmpty()) {
      throw new Unsupported("a scan with a limit or runtime filters");
    }
    List<Field> stored = scan.lanceTable().fields();
    ScanColumns scanColumns = scanColumns(scan);
    List<String> columns = new ArrayList<>(scanColumns.columns());
    if (columns.isEmpty()) {
      columns.add(stored.get(0).getName());
    }
    Pipeline pipeline = new Pipeline(subtree.getCluster().getRexBuilder(), joins, rowsOnly);
    for (Field field : scan.outputFields()) {
      pipeline.shapes.add(shape(field));
    }
    for (RelNode rel : chain) {
      pipeline.add(rel);
    }
    return pipeline.plan(subtree, scan, columns, scanColumns.filter());
  }

  /**
   * The operators compiled so far, from the scan up, and the shapes of their output columns: one compile step per
   * operator ({@link #add}), in the order the rows meet them.
   */
  private static final class Pipeline {
    private final RexBuilder rexBuilder;
    private final ProbeJoins joins;
    private List<Col> shapes = new ArrayList<>();
    /** The operators before the aggregate (per batch) and after it (on the grouped rows). */
    private final List<Op> before = new ArrayList<>();
    private final List<Op> after = new ArrayList<>();
    private Aggregate aggregate;
    private int[] keys;
    private Col[] keyShapes;
    private final List<AggSpec> specs = new ArrayList<>();
    private Col[] argShapes;
    private Sort sort;
    /** Whether the pipeline's rows are its result (no aggregate, sort or limit allowed). */
    private final boolean rowsOnly;
    private final JoinPrefilters prefilters = new JoinPrefilters();

    Pipeline(RexBuilder rexBuilder, ProbeJoins joins, boolean rowsOnly) {
      this.rexBuilder = rexBuilder;
      this.joins = joins;
      this.rowsOnly = rowsOnly;
    }

    /** Compiles the next operator up the chain, or says why it cannot. */
    void add(RelNode rel) throws Unsupported {
      if (sort != null) {
        throw new Unsupported("an operator above ORDER BY/LIMIT");
      }
      if (rowsOnly && (rel instanceof Aggregate || rel instanceof Sort)) {
        throw new Unsupported("an aggregate, sort or limit in a rows-only pipeline");
      }
      if (rel instanceof Filter) {
        filter((Filter) rel);
      } else if (rel instanceof Project) {
        project((Project) rel);
      } else if (rel instanceof Aggregate) {
        aggregate((Aggregate) rel);
      } else if (rel instanceof Sort) {
        sort = (Sort) rel;
      } else if (rel instanceof Join && joins != null && aggregate == null) {
        probe((Join) rel);
      } else {
        throw new Unsupported("operator " + rel.getRelTypeName());
      }
    }

    /** Where the next operator goes: per batch before the aggregate, on the grouped rows after it. */
    private List<Op> ops() {
      return aggregate == null ? before : after;
    }

    private void filter(Filter filter) throws Unsupported {
      ExprCompiler compiler = new ExprCompiler(rexBuilder, shapes);
      List<Expr> conjuncts = new ArrayList<>();
      for (RexNode conjunct : RelOptUtil.conjunctions(
          RexUtil.expandSearch(rexBuilder, null, filter.getCondition()))) {
        conjuncts.add(compiler.compile(conjunct));
      }
      ops().add(new Op.Filter(conjuncts));
    }

    private void project(Project project) throws Unsupported {
      // As a program: common sub-expressions (Q1's l_extendedprice * (1 - l_discount)) are computed once.
      RexProgram program = RexProgram.create(project.getInput().getRowType(), project.getProjects(), null,
          project.getRowType(), rexBuilder);
      int inputCount = project.getInput().getRowType().getFieldCount();
      List<Col> extended = new ArrayList<>(shapes);
      List<Expr> steps = new ArrayList<>();
      List<RexNode> exprs = program.getExprList();
      // Literals go back into the calls that use them: a SEARCH needs its range set, EXTRACT its time unit.
      RexShuttle inlineLiterals = new RexShuttle() {
        @Override
        public RexNode visitLocalRef(RexLocalRef ref) {
          RexNode expr = exprs.get(ref.getIndex());
          return expr instanceof RexLiteral ? expr : new RexInputRef(ref.getIndex(), ref.getType());
        }
      };
      for (int k = inputCount; k < exprs.size(); k++) {
        RexNode expr = exprs.get(k);
        boolean flag = expr instanceof RexLiteral && (((RexLiteral) expr).getTypeName() == SqlTypeName.SARG
            || ((RexLiteral) expr).getTypeName() == SqlTypeName.SYMBOL);
        steps.add(new ExprCompiler(rexBuilder, extended).compile(expr.accept(inlineLiterals)));
        extended.add(ExprCompiler.shape(flag ? rexBuilder.getTypeFactory().createSqlType(SqlTypeName.BIGINT)
            : expr.getType()));
      }
      List<RexLocalRef> projected = program.getProjectList();
      int[] outputs = new int[projected.size()];
      List<Col> next = new ArrayList<>();
      for (int i = 0; i < outputs.length; i++) {
        outputs[i] = projected.get(i).getIndex();
        next.add(extended.get(outputs[i]));
      }
      ops().add(new Op.Program(inputCount, steps, outputs));
      if (aggregate == null) {
        prefilters.project(outputs, inputCount);
      }
      shapes = next;
    }

    /**
     * The aggregate of the pipeline (its keys and partial aggregates merged across fragments), or — when there is one
     * already — an aggregate of the grouped rows (Q15's MAX over the revenue per supplier), run on the merged groups.
     */
    private void aggregate(Aggregate rel) throws Unsupported {
      if (rel.getGroupType() != Aggregate.Group.SIMPLE) {
        throw new Unsupported("GROUPING SETS");
      }
      int[] groupKeys = rel.getGroupSet().toArray();
      Col[] groupKeyShapes = new Col[groupKeys.length];
      List<Col> next = new ArrayList<>();
      for (int k = 0; k < groupKeys.length; k++) {
        groupKeyShapes[k] = shapes.get(groupKeys[k]);
        next.add(groupKeyShapes[k]);
      }
      List<AggSpec> groupSpecs = new ArrayList<>();
      Col[] groupArgShapes = new Col[rel.getAggCallList().size()];
      for (int a = 0; a < groupArgShapes.length; a++) {
        AggregateCall call = rel.getAggCallList().get(a);
        AggSpec spec = spec(call, shapes);
        groupSpecs.add(spec);
        groupArgShapes[a] = spec.argument() < 0 ? null : shapes.get(spec.argument());
        next.add(ExprCompiler.shape(call.getType()));
      }
      if (aggregate != null) {
        after.add(new Op.Regroup(groupKeys, groupKeyShapes, groupSpecs, groupArgShapes));
      } else {
        aggregate = rel;
        keys = groupKeys;
        keyShapes = groupKeyShapes;
        specs.addAll(groupSpecs);
        argShapes = groupArgShapes;
      }
      shapes = next;
    }

    private void probe(Join join) throws Unsupported {
      ProbeJoins.Step step = joins.probe(join, shapes, rexBuilder);
      prefilters.join(step.ops(), before.size(), shapes.size());
      before.addAll(step.ops());
      shapes = step.shapes();
    }

    /** The compiled plan of {@code subtree}, whose pipeline this is, over the scan's {@code columns}. */
    VectorPlan plan(RelNode subtree, LanceTableScan scan, List<String> columns, Optional<Op.Filter> scanFilter)
        throws Unsupported {
      if (aggregate == null && !rowsOnly) {
        throw new Unsupported("a subtree without an aggregate (Lance streams its rows directly)");
      }
      List<VectorPlan.Output> output = new ArrayList<>();
      for (RelDataTypeField field : subtree.getRowType().getFieldList()) {
        ExprCompiler.shape(field.getType());
        output.add(ExprCompiler.output(field.getType()));
      }
      List<Op> before = prefilters.insertInto(this.before);
      if (rowsOnly) {
        return new VectorPlan(scan.lanceTable().name(), columns, scan.filter(), scanFilter, before, null, null,
            List.of(), null, List.of(), List.of(), 0, Optional.empty(), output);
      }
      List<VectorPlan.SortKey> sortKeys = new ArrayList<>();
      long offset = 0;
      Optional<Long> fetch = Optional.empty();
      if (sort != null) {
        for (RelFieldCollation collation : sort.getCollation().getFieldCollations()) {
          boolean descending = collation.getDirection().isDescending();
          RelFieldCollation.NullDirection nulls = collation.nullDirection;
          boolean nullsFirst = nulls == RelFieldCollation.NullDirection.UNSPECIFIED ? descending
              : nulls == RelFieldCollation.NullDirection.FIRST;
          sortKeys.add(new VectorPlan.SortKey(collation.getFieldIndex(), descending, nullsFirst));
        }
        offset = sort.offset == null ? 0 : literal(sort.offset);
        fetch = sort.fetch == null ? Optional.empty() : Optional.of(literal(sort.fetch));
      }
      return new VectorPlan(scan.lanceTable().name(), columns, scan.filter(), scanFilter, before, keys, keyShapes,
          specs, argShapes, after, sortKeys, offset, fetch, output);
    }
  }

  /**
   * What a vectorized scan of {@code scan} reads: its projected columns, then the columns only its condition uses; and
   * the condition compiled over them (empty, with only the projected columns, when it has none or the executor
   * cannot evaluate it — Lance's filter then applies).
   */
  record ScanColumns(List<String> columns, Optional<Op.Filter> filter, Optional<CachedScan.Key> key) {}

  static ScanColumns scanColumns(LanceTableScan scan) throws Unsupported {
    return scanColumns(scan, scan.condition());
  }

  /**
   * {@link #scanColumns(LanceTableScan)} with {@code condition} in place of the scan's own (a parameterized scan's
   * condition with one execution's values bound); with the key equality the filter holds, if any
   * ({@link CachedScan#key}).
   */
  static ScanColumns scanColumns(LanceTableScan scan, Optional<RexNode> bound) throws Unsupported {
    RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
    List<Field> stored = scan.lanceTable().fields();
    List<String> columns = new ArrayList<>(scan.columnNames());
    List<Integer> positions = new ArrayList<>(scan.projects());
    if (bound.isEmpty()) {
      return new ScanColumns(columns, Optional.empty(), Optional.empty());
    }
    RexNode condition = bound.get().accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        int at = positions.indexOf(ref.getIndex());
        if (at < 0) {
          at = positions.size();
          positions.add(ref.getIndex());
          columns.add(stored.get(ref.getIndex()).getName());
        }
        return new RexInputRef(at, ref.getType());
      }
    });
    List<Col> scanned = new ArrayList<>();
    for (int position : positions) {
      scanned.add(shape(stored.get(position)));
    }
    try {
      ExprCompiler compiler = new ExprCompiler(rexBuilder, scanned);
      List<Expr> conjuncts = new ArrayList<>();
      Optional<CachedScan.Key> key = Optional.empty();
      for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.expandSearch(rexBuilder, null, condition))) {
        conjuncts.add(compiler.compile(conjunct));
        if (key.isEmpty()) {
          key = keyEquality(conjunct);
        }
      }
      return new ScanColumns(columns, Optional.of(new Op.Filter(conjuncts)), key);
    } catch (Unsupported e) {
      return new ScanColumns(columns.subList(0, scan.projects().size()), Optional.empty(), Optional.empty());
    }
  }

  /**
   * {@code $i = constant} (either way round) with column i an integer column and the constant an integer — a literal,
   * or a literal cast to an integer type it fits (how a bound parameter arrives, {@code ParameterBinder}).
   */
  private static Optional<CachedScan.Key> keyEquality(RexNode conjunct) {
    if (conjunct.getKind() != SqlKind.EQUALS) {
      return Optional.empty();
    }
    List<RexNode> operands = ((RexCall) conjunct).getOperands();
    for (int side = 0; side < 2; side++) {
      RexNode column = operands.get(side);
      if (column instanceof RexInputRef && SqlTypeName.INT_TYPES.contains(column.getType().getSqlTypeName())) {
        Optional<Long> value = integerConstant(operands.get(1 - side));
        if (value.isPresent()) {
          return Optional.of(new CachedScan.Key(((RexInputRef) column).getIndex(), value.get()));
        }
      }
    }
    return Optional.empty();
  }

  /** The value of an integer literal, or of one cast to an integer type whose range holds it; else empty. */
  private static Optional<Long> integerConstant(RexNode node) {
    RexNode literal = node;
    SqlTypeName castTo = null;
    if (node.getKind() == SqlKind.CAST && ((RexCall) node).getOperands().size() == 1) {
      castTo = node.getType().getSqlTypeName();
      literal = ((RexCall) node).getOperands().get(0);
      if (!SqlTypeName.INT_TYPES.contains(castTo)) {
        return Optional.empty();
      }
    }
    if (!(literal instanceof RexLiteral) || !(((RexLiteral) literal).getValue() instanceof java.math.BigDecimal)) {
      return Optional.empty();
    }
    long value;
    try {
      value = ((java.math.BigDecimal) ((RexLiteral) literal).getValue()).longValueExact();
    } catch (ArithmeticException e) {
      return Optional.empty(); // a fraction, or beyond a long: left to the filter
    }
    if (castTo != null) {
      long bits = castTo == SqlTypeName.TINYINT ? 8 : castTo == SqlTypeName.SMALLINT ? 16
          : castTo == SqlTypeName.INTEGER ? 32 : 64;
      if (bits < 64 && (value < -(1L << (bits - 1)) || value >= 1L << (bits - 1))) {
        return Optional.empty(); // the cast would not keep the value: left to the filter
      }
    }
    return Optional.of(value);
  }

  private static long literal(RexNode node) throws Unsupported {
    if (!(node instanceof RexLiteral)) {
      throw new Unsupported("a LIMIT or OFFSET that is not a constant");
    }
    Long value = ((RexLiteral) node).getValueAs(Long.class);
    if (value == null || value < 0) {
      throw new Unsupported("a negative LIMIT or OFFSET");
    }
    return value;
  }

  private static Col shape(Field field) throws Unsupported {
    Col shape = dev.lake.query.vector.ColumnReader.shape(field.getType());
    if (shape == null) {
      throw new Unsupported("column " + field.getName() + " of Arrow type " + field.getType());
    }
    return shape;
  }

  private static AggSpec spec(AggregateCall call, List<Col> inputs) throws Unsupported {
    if (call.isDistinct() || call.filterArg >= 0 || call.getArgList().size() > 1 || call.isApproximate()) {
      throw new Unsupported("aggregate " + call);
    }
    AggSpec.Function function;
    switch (call.getAggregation().getKind()) {
      case COUNT:
        function = AggSpec.Function.COUNT;
        break;
      case SUM:
        function = AggSpec.Function.SUM;
        break;
      case SUM0:
        function = AggSpec.Function.SUM0;
        break;
      case MIN:
        function = AggSpec.Function.MIN;
        break;
      case MAX:
        function = AggSpec.Function.MAX;
        break;
      case AVG:
        function = AggSpec.Function.AVG;
        break;
      default:
        throw new Unsupported("aggregate function " + call.getAggregation().getName());
    }
    int argument = call.getArgList().isEmpty() ? -1 : call.getArgList().get(0);
    if (argument < 0 && function != AggSpec.Function.COUNT) {
      throw new Unsupported("aggregate " + call);
    }
    if (argument >= 0 && function != AggSpec.Function.COUNT && inputs.get(argument).kind() == dev.lake.query.vector.Kind.STRING) {
      throw new Unsupported(function + " of a string");
    }
    Col result = ExprCompiler.shape(call.getType());
    boolean integer = call.getType().getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.DECIMAL;
    return new AggSpec(function, argument, result.kind(), result.scale(),
        integer);
  }
}
