package dev.lake.query.plan.enumerable;

import dev.lake.query.model.QueryRejectedException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

/**
 * Makes Calcite's Enumerable runtime exact (docs/api.md, "Exactness"). Applied to the physical plan last, so it
 * rewrites only expressions Calcite's generated code evaluates (never those pushed into Lance).
 *
 * <ul>
 *   <li>TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME ZONE and TIME(p) with p > 3 are held as longs in the unit of their
 *       precision — microseconds up to 6, nanoseconds up to 9 — instead of Calcite's milliseconds (lake's readers
 *       and writers and {@link dev.lake.query.plan.types.LakeTypeFactory} agree). Comparisons, sorting, grouping,
 *       joins, MIN/MAX, CASE and window functions work on those longs unchanged; literals, CAST, {@code +/-}
 *       intervals, EXTRACT and FLOOR are rewritten into {@link TemporalFunctions} calls; values of different
 *       precisions meet in one unit. Anything else over such a value is refused with a message rather than computed
 *       in milliseconds.
 *   <li>DECIMAL division and CAST to DECIMAL or to an integer round half-up at the result scale and fail when the
 *       result does not fit its type (Calcite computes division with 16 significant digits and truncates casts).
 *   <li>SUM of integers (BIGINT) and integer {@code + - *} fail on overflow instead of wrapping.
 * </ul>
 *
 * <p>This class walks the plan's relational operators (calcs, join conditions, values, aggregates, windows; TIME(p > 3)
 * computed on BIGINT views where Calcite would read an int); {@link ExactExpressions} rewrites their expressions,
 * with {@link TemporalRewrites} and {@link DecimalRewrites}; {@link TemporalFunctions}, {@link DecimalFunctions} and
 * {@link CheckedSum} are what
 * the generated code calls.
 */
public final class ExactRuntime {
  /** Aggregates that only compare or count their temporal argument. */
  private static final Set<SqlKind> UNIT_FREE_AGGREGATES = EnumSet.of(SqlKind.MIN, SqlKind.MAX, SqlKind.COUNT,
      SqlKind.ANY_VALUE, SqlKind.SINGLE_VALUE, SqlKind.FIRST_VALUE, SqlKind.LAST_VALUE, SqlKind.LAG, SqlKind.LEAD,
      SqlKind.NTH_VALUE, SqlKind.ROW_NUMBER, SqlKind.RANK, SqlKind.DENSE_RANK);


  private static final SqlAggFunction CHECKED_SUM = checkedSum("LAKE_CHECKED_SUM", ReturnTypes.AGG_SUM);
  private static final SqlAggFunction CHECKED_SUM0 = checkedSum("LAKE_CHECKED_SUM0",
      ReturnTypes.AGG_SUM_EMPTY_IS_ZERO);

  private final RexBuilder rexBuilder;
  private final RelDataTypeFactory typeFactory;
  private final ExactExpressions expressions;

  private ExactRuntime(RexBuilder rexBuilder) {
    this.rexBuilder = rexBuilder;
    this.typeFactory = rexBuilder.getTypeFactory();
    this.expressions = new ExactExpressions(rexBuilder);
  }

  private static SqlAggFunction checkedSum(String name, org.apache.calcite.sql.type.SqlReturnTypeInference type) {
    return new SqlUserDefinedAggFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, type,
        InferTypes.FIRST_KNOWN, null, AggregateFunctionImpl.create(CheckedSum.class), false, false,
        Optionality.FORBIDDEN);
  }

  /** The plan with every Enumerable expression made exact. */
  public static RelNode apply(RelNode plan) {
    return new ExactRuntime(plan.getCluster().getRexBuilder()).rewrite(plan);
  }

  /**
   * Whether {@code expression} holds a call only this runtime computes exactly, so the planner must not evaluate it
   * while planning (with Calcite's code) even when its operands are constants: a cast of a DECIMAL, TIME or TIMESTAMP
   * to text (Calcite writes {@code .5}, {@code 1E-10}, no fractional seconds), a DECIMAL division (Calcite divides to
   * 16 significant digits, truncated) and a cast of a DOUBLE or REAL to an integer type (Calcite truncates; this
   * runtime rounds half away from zero and refuses NaN, the infinities and values beyond the type), DATE and
   * TIMESTAMP arithmetic with intervals unless {@link TemporalRewrites#foldable} (Calcite's ints of days and months
   * wrap) and integer arithmetic of constants whose result does not fit its type (Calcite's folding wraps).
   */
  public static boolean exactOnlyAtRunTime(RexNode expression) {
    boolean[] found = {false};
    expression.accept(new org.apache.calcite.rex.RexVisitorImpl<Void>(true) {
      @Override
      public Void visitCall(RexCall call) {
        RelDataType to = call.getType();
        if (call.getKind() == SqlKind.CAST) {
          RelDataType from = call.getOperands().get(0).getType();
          found[0] |= TemporalRewrites.toText(from, to) || from.getSqlTypeName() == SqlTypeName.DECIMAL
              && org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER.contains(to)
              || SqlTypeName.APPROX_TYPES.contains(from.getSqlTypeName())
              && SqlTypeName.INT_TYPES.contains(to.getSqlTypeName())
              || org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER.contains(from) && fine(to);
        }
        found[0] |= call.getKind() == SqlKind.DIVIDE && to.getSqlTypeName() == SqlTypeName.DECIMAL;
        found[0] |= TemporalRewrites.datetimeArithmetic(call) && !TemporalRewrites.foldable(call);
        found[0] |= integerArithmetic(call) && exactInteger(call) == null;
        return super.visitCall(call);
      }
    });
    return found[0];
  }

  private static boolean integerArithmetic(RexCall call) {
    SqlKind kind = call.getKind();
    return SqlTypeName.INT_TYPES.contains(call.getType().getSqlTypeName()) && (kind == SqlKind.PLUS
        || kind == SqlKind.MINUS || kind == SqlKind.TIMES || kind == SqlKind.MINUS_PREFIX
        || call.getOperator() == SqlStdOperatorTable.ABS);
  }

  /**
   * The value of integer literals and integer {@code + - *}, negation and ABS of them when it fits its type, else
   * null: Calcite's folding wraps what does not fit, so such an expression runs where it is checked.
   */
  private static BigDecimal exactInteger(RexNode node) {
    if (node instanceof RexLiteral) {
      return SqlTypeName.INT_TYPES.contains(node.getType().getSqlTypeName())
          ? ((RexLiteral) node).getValueAs(BigDecimal.class) : null;
    }
    if (!(node instanceof RexCall) || !integerArithmetic((RexCall) node)) {
      return null;
    }
    RexCall call = (RexCall) node;
    List<BigDecimal> values = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      BigDecimal value = exactInteger(operand);
      if (value == null) {
        return null;
      }
      values.add(value);
    }
    BigDecimal result = switch (call.getKind()) {
      case PLUS -> values.get(0).add(values.get(1));
      case MINUS -> values.get(0).subtract(values.get(1));
      case TIMES -> values.get(0).multiply(values.get(1));
      case MINUS_PREFIX -> values.get(0).negate();
      default -> values.get(0).abs();
    };
    BigDecimal max = BigDecimal.valueOf(IntegerFunctions.max(call.getType().getSqlTypeName().getName()));
    return result.compareTo(max) <= 0 && result.compareTo(max.negate().subtract(BigDecimal.ONE)) >= 0 ? result : null;
  }

  private static boolean fine(RelDataType type) {
    return TemporalRewrites.fine(type);
  }

  private static boolean fineIn(List<RexNode> nodes) {
    return TemporalRewrites.fineIn(nodes);
  }

  private static BigDecimal units(RexLiteral literal) {
    return TemporalRewrites.units(literal);
  }

  private RelNode rewrite(RelNode rel) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode rewritten = rewrite(input);
      changed |= rewritten != input;
      inputs.add(rewritten);
    }
    RelNode current = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (current instanceof EnumerableCalc) {
      return calc((EnumerableCalc) current);
    }
    if (current instanceof Join) {
      return join((Join) current);
    }
    if (current instanceof EnumerableValues) {
      return values((EnumerableValues) current);
    }
    if (current instanceof EnumerableAggregate) {
      return lowered(aggregate((EnumerableAggregate) current));
    }
    if (current instanceof EnumerableWindow) {
      window((EnumerableWindow) current);
      return lowered((EnumerableWindow) current);
    }
    return current;
  }

  private RelNode calc(EnumerableCalc calc) {
    RexProgram program = calc.getProgram();
    List<RexNode> projects = new ArrayList<>();
    boolean changed = false;
    for (RexNode project : program.getProjectList()) {
      RexNode expanded = program.expandLocalRef((org.apache.calcite.rex.RexLocalRef) project);
      RexNode exact = expanded.accept(expressions);
      changed |= exact != expanded;
      projects.add(exact);
    }
    RexNode condition = null;
    if (program.getCondition() != null) {
      RexNode expanded = program.expandLocalRef(program.getCondition());
      condition = expanded.accept(expressions);
      changed |= condition != expanded;
    }
    if (!changed) {
      return calc;
    }
    List<RexNode> all = new ArrayList<>(projects);
    if (condition != null) {
      all.add(condition);
    }
    if (all.stream().anyMatch(ExactRuntime::fineTimeOperand)) {
      return lowered(calc, projects, condition);
    }
    RexProgram exact = RexProgram.create(calc.getInput().getRowType(), projects, condition, calc.getRowType(),
        rexBuilder);
    return EnumerableCalc.create(calc.getInput(), exact);
  }

  private static boolean fineTime(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.TIME && fine(type);
  }

  /** Whether a call in {@code node} takes a TIME of precision above 3 (which Calcite would read as an int). */
  private static boolean fineTimeOperand(RexNode node) {
    if (!(node instanceof RexCall)) {
      return false;
    }
    for (RexNode operand : ((RexCall) node).getOperands()) {
      if (fineTime(operand.getType()) || fineTimeOperand(operand)) {
        return true;
      }
    }
    return false;
  }

  private RelDataType lowered(RelDataType type) {
    return fineTime(type) ? typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT),
        type.isNullable()) : type;
  }

  private RelDataType loweredRow(RelDataType row) {
    RelDataTypeFactory.Builder builder = typeFactory.builder();
    for (RelDataTypeField field : row.getFieldList()) {
      builder.add(field.getName(), lowered(field.getType()));
    }
    return builder.build();
  }

  /**
   * A calc whose expressions take TIME(p > 3) operands, computed on BIGINT views of those values: its input and
   * output retyped around it ({@link EnumerableRetype}), the expressions typed BIGINT where they were such TIMEs.
   */
  private RelNode lowered(EnumerableCalc calc, List<RexNode> projects, RexNode condition) {
    RelDataType inputRow = loweredRow(calc.getInput().getRowType());
    RexShuttle lower = new RexShuttle() {
      @Override
      public RexNode visitInputRef(org.apache.calcite.rex.RexInputRef ref) {
        return fineTime(ref.getType()) ? new org.apache.calcite.rex.RexInputRef(ref.getIndex(), lowered(ref.getType()))
            : ref;
      }

      @Override
      public RexNode visitCall(RexCall call) {
        RexCall visited = (RexCall) super.visitCall(call);
        return fineTime(visited.getType()) ? visited.clone(lowered(visited.getType()), visited.getOperands())
            : visited;
      }
    };
    List<RexNode> loweredProjects = new ArrayList<>();
    for (RexNode project : projects) {
      loweredProjects.add(project.accept(lower));
    }
    RexNode loweredCondition = condition == null ? null : condition.accept(lower);
    RelNode input = new EnumerableRetype(calc.getInput(), inputRow);
    RexProgram program = RexProgram.create(inputRow, loweredProjects, loweredCondition, loweredRow(calc.getRowType()),
        rexBuilder);
    return new EnumerableRetype(EnumerableCalc.create(input, program), calc.getRowType());
  }

  private RelNode join(Join join) {
    RexNode condition = join.getCondition().accept(expressions);
    if (condition == join.getCondition()) {
      return join;
    }
    if (!(join instanceof org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin)) {
      org.apache.calcite.rel.core.JoinInfo before = join.analyzeCondition();
      org.apache.calcite.rel.core.JoinInfo after = org.apache.calcite.rel.core.JoinInfo.of(join.getLeft(),
          join.getRight(), condition);
      if (!before.leftKeys.equals(after.leftKeys) || !before.rightKeys.equals(after.rightKeys)) {
        throw new QueryRejectedException("this join compares TIMESTAMP or TIME values of different precisions in"
            + " its keys; CAST one side to the other's type");
      }
    }
    return join.copy(join.getTraitSet(), condition, join.getLeft(), join.getRight(), join.getJoinType(),
        join.isSemiJoinDone());
  }

  /** Values rows cannot hold expressions: fine temporal columns become BIGINT units, reinterpreted above. */
  private RelNode values(EnumerableValues values) {
    List<RelDataTypeField> fields = values.getRowType().getFieldList();
    if (fields.stream().noneMatch(f -> fine(f.getType()))) {
      return values;
    }
    RelDataTypeFactory.Builder units = typeFactory.builder();
    for (RelDataTypeField field : fields) {
      units.add(field.getName(), fine(field.getType())
          ? typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT),
              field.getType().isNullable())
          : field.getType());
    }
    RelDataType unitRow = units.build();
    List<List<RexLiteral>> tuples = new ArrayList<>();
    for (List<RexLiteral> tuple : values.getTuples()) {
      List<RexLiteral> row = new ArrayList<>();
      for (int i = 0; i < tuple.size(); i++) {
        RexLiteral literal = tuple.get(i);
        row.add(fine(fields.get(i).getType())
            ? rexBuilder.makeLiteral(units(literal), unitRow.getFieldList().get(i).getType())
            : literal);
      }
      tuples.add(row);
    }
    EnumerableValues unitValues = EnumerableValues.create(values.getCluster(), unitRow,
        com.google.common.collect.ImmutableList.copyOf(tuples.stream()
            .map(com.google.common.collect.ImmutableList::copyOf).toList()));
    List<RexNode> projects = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      RexNode ref = rexBuilder.makeInputRef(unitValues, i);
      projects.add(fine(fields.get(i).getType())
          ? rexBuilder.makeCall(fields.get(i).getType(), SqlStdOperatorTable.REINTERPRET, List.of(ref)) : ref);
    }
    return EnumerableCalc.create(unitValues,
        RexProgram.create(unitRow, projects, null, values.getRowType(), rexBuilder));
  }

  private RelNode aggregate(EnumerableAggregate aggregate) {
    List<AggregateCall> calls = new ArrayList<>();
    boolean changed = false;
    for (AggregateCall call : aggregate.getAggCallList()) {
      SqlKind kind = call.getAggregation().getKind();
      for (int argument : call.getArgList()) {
        RelDataType type = aggregate.getInput().getRowType().getFieldList().get(argument).getType();
        if (fine(type) && !UNIT_FREE_AGGREGATES.contains(kind)) {
          throw new QueryRejectedException(call.getAggregation().getName() + " over " + type.getFullTypeString()
              + " cannot be computed exactly yet; CAST the argument to a type of precision 3 first");
        }
      }
      if ((kind == SqlKind.SUM || kind == SqlKind.SUM0) && call.getType().getSqlTypeName() == SqlTypeName.BIGINT
          && !call.isDistinct()) {
        calls.add(AggregateCall.create(kind == SqlKind.SUM ? CHECKED_SUM : CHECKED_SUM0, false,
            call.isApproximate(), call.ignoreNulls(),
            call.rexList, call.getArgList(), call.filterArg, call.distinctKeys, call.getCollation(),
            call.getType(), call.getName()));
        changed = true;
      } else {
        calls.add(call);
      }
    }
    if (!changed) {
      return aggregate;
    }
    return aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), aggregate.getGroupSet(),
        aggregate.getGroupSets(), calls);
  }

  private void window(EnumerableWindow window) {
    for (RexLiteral constant : window.getConstants()) {
      if (fine(constant.getType())) {
        throw new QueryRejectedException("a window function takes a " + constant.getType().getFullTypeString()
            + " literal, which lake cannot evaluate exactly yet; CAST it to precision 3");
      }
    }
    for (Window.Group group : window.groups) {
      boolean offsets = group.lowerBound.getOffset() != null || group.upperBound.getOffset() != null;
      boolean fineOrder = group.orderKeys.getFieldCollations().stream().anyMatch(c ->
          fine(window.getInput().getRowType().getFieldList().get(c.getFieldIndex()).getType()));
      if (!group.isRows && offsets && fineOrder) {
        throw new QueryRejectedException("a RANGE window with an offset over a TIMESTAMP/TIME of precision above 3"
            + " cannot be computed exactly yet; use ROWS or CAST the ordering column to precision 3");
      }
      for (Window.RexWinAggCall call : group.aggCalls) {
        if (fineIn(call.getOperands()) && !UNIT_FREE_AGGREGATES.contains(call.getKind())) {
          throw new QueryRejectedException(call.getOperator().getName() + " over a TIMESTAMP/TIME of precision"
              + " above 3 cannot be computed exactly yet; CAST the argument to precision 3 first");
        }
      }
    }
  }

  /** An aggregate of TIME(p > 3) arguments, computed on their BIGINT views (Calcite reads TIME arguments as ints). */
  private RelNode lowered(RelNode rel) {
    if (!(rel instanceof EnumerableAggregate)) {
      return rel;
    }
    EnumerableAggregate aggregate = (EnumerableAggregate) rel;
    List<RelDataTypeField> fields = aggregate.getInput().getRowType().getFieldList();
    boolean times = aggregate.getAggCallList().stream()
        .anyMatch(call -> call.getArgList().stream().anyMatch(a -> fineTime(fields.get(a).getType())));
    if (!times) {
      return aggregate;
    }
    RelNode input = new EnumerableRetype(aggregate.getInput(), loweredRow(aggregate.getInput().getRowType()));
    List<AggregateCall> calls = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      calls.add(AggregateCall.create(call.getAggregation(), call.isDistinct(), call.isApproximate(),
          call.ignoreNulls(), call.rexList, call.getArgList(), call.filterArg, call.distinctKeys,
          call.getCollation(), lowered(call.getType()), call.getName()));
    }
    RelNode computed = aggregate.copy(aggregate.getTraitSet(), input, aggregate.getGroupSet(),
        aggregate.getGroupSets(), calls);
    return new EnumerableRetype(computed, aggregate.getRowType());
  }

  /** A window whose functions take TIME(p > 3) arguments, computed on their BIGINT views. */
  private RelNode lowered(EnumerableWindow window) {
    boolean times = window.groups.stream().flatMap(g -> g.aggCalls.stream())
        .anyMatch(call -> call.getOperands().stream().anyMatch(o -> fineTime(o.getType())));
    if (!times) {
      return window;
    }
    RelNode input = new EnumerableRetype(window.getInput(), loweredRow(window.getInput().getRowType()));
    List<Window.Group> groups = new ArrayList<>();
    for (Window.Group group : window.groups) {
      List<Window.RexWinAggCall> calls = new ArrayList<>();
      for (Window.RexWinAggCall call : group.aggCalls) {
        List<RexNode> operands = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
          operands.add(operand instanceof org.apache.calcite.rex.RexInputRef && fineTime(operand.getType())
              ? new org.apache.calcite.rex.RexInputRef(((org.apache.calcite.rex.RexInputRef) operand).getIndex(),
                  lowered(operand.getType()))
              : operand);
        }
        calls.add(new Window.RexWinAggCall((SqlAggFunction) call.getOperator(), lowered(call.getType()), operands,
            call.ordinal, call.distinct, call.ignoreNulls));
      }
      groups.add(new Window.Group(group.keys, group.isRows, group.lowerBound, group.upperBound, group.exclude,
          group.orderKeys, calls));
    }
    org.apache.calcite.rel.logical.LogicalWindow logical = org.apache.calcite.rel.logical.LogicalWindow.create(
        window.getTraitSet().replace(org.apache.calcite.plan.Convention.NONE), input, window.getConstants(),
        loweredRow(window.getRowType()), groups);
    RelNode computed = ((org.apache.calcite.rel.convert.ConverterRule)
        org.apache.calcite.adapter.enumerable.EnumerableRules.ENUMERABLE_WINDOW_RULE).convert(logical);
    return new EnumerableRetype(computed, window.getRowType());
  }
}
