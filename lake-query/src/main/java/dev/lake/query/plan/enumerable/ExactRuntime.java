package dev.lake.query.plan.enumerable;

import dev.lake.query.model.QueryRejectedException;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.avatica.util.TimeUnitRange;
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
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.Optionality;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Makes Calcite's Enumerable runtime exact (docs/api.md, "Exactness"). Applied to the physical plan last, so it
 * rewrites only expressions Calcite's generated code evaluates (never those pushed into Lance).
 *
 * <ul>
 *   <li>TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME ZONE and TIME(p) with p > 3 are held as longs in the unit of their
 *       precision — microseconds up to 6, nanoseconds up to 9 — instead of Calcite's milliseconds (lake's readers
 *       and writers and {@link dev.lake.query.plan.types.LakeTypeFactory} agree). Comparisons, sorting, grouping,
 * joins, MIN/MAX, CASE and
 *       window functions work on those longs unchanged; literals, CAST, {@code +/-} intervals, EXTRACT and FLOOR
 *       are rewritten into {@link ExactFunctions} calls; values of different precisions meet in one unit.
 *       Anything else over such a value is refused with a message rather than computed in milliseconds.
 *   <li>DECIMAL division and CAST to DECIMAL or to an integer round half-up at the result scale and fail when the
 *       result does not fit its type (Calcite computes division with 16 significant digits and truncates casts).
 *   <li>SUM of integers (BIGINT) and integer {@code + - *} fail on overflow instead of wrapping.
 * </ul>
 */
public final class ExactRuntime extends RexShuttle {
  private static final long MILLIS = 1_000L;
  private static final long MICROS = 1_000_000L;
  private static final long NANOS = 1_000_000_000L;
  /** Calls whose meaning does not depend on the unit temporal operands are held in (once aligned). */
  private static final Set<SqlKind> UNIT_FREE = EnumSet.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
      SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.IS_DISTINCT_FROM,
      SqlKind.IS_NOT_DISTINCT_FROM, SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.CASE, SqlKind.COALESCE,
      SqlKind.NULLIF, SqlKind.GREATEST, SqlKind.LEAST, SqlKind.REINTERPRET);
  /** Aggregates that only compare or count their temporal argument. */
  private static final Set<SqlKind> UNIT_FREE_AGGREGATES = EnumSet.of(SqlKind.MIN, SqlKind.MAX, SqlKind.COUNT,
      SqlKind.ANY_VALUE, SqlKind.SINGLE_VALUE, SqlKind.FIRST_VALUE, SqlKind.LAST_VALUE, SqlKind.LAG, SqlKind.LEAD,
      SqlKind.NTH_VALUE, SqlKind.ROW_NUMBER, SqlKind.RANK, SqlKind.DENSE_RANK);

  private static final SqlOperator RESCALE = function("rescale");
  private static final SqlOperator RESCALE_TO_INT = function("rescaleToInt");
  private static final SqlOperator TO_DATE = function("toDate");
  private static final SqlOperator FROM_DATE = function("fromDate");
  private static final SqlOperator TIME_OF_DAY = function("timeOfDay");
  private static final SqlOperator TIME_OF_DAY_TO_INT = function("timeOfDayToInt");
  private static final SqlOperator PLUS_MILLIS = function("plusMillis");
  private static final SqlOperator TIME_PLUS_MILLIS = function("timePlusMillis");
  private static final SqlOperator PLUS_MONTHS = function("plusMonths");
  private static final SqlOperator SECONDS_OF_MINUTE = function("secondsOfMinute");
  private static final SqlOperator TIMESTAMP_STRING = function("timestampString");
  private static final SqlOperator TIME_STRING = function("timeString");
  private static final SqlOperator PARSE_TIMESTAMP = function("parseTimestamp");
  private static final SqlOperator PARSE_TIME = function("parseTime");
  private static final SqlOperator DIVIDE = function("divide");
  private static final SqlOperator TO_DECIMAL = function("toDecimal");
  private static final SqlOperator DOUBLE_TO_DECIMAL = function("doubleToDecimal");
  private static final SqlOperator STRING_TO_DECIMAL = function("stringToDecimal");
  private static final SqlOperator DECIMAL_TO_LONG = function("decimalToLong");
  private static final SqlOperator DECIMAL_TO_INT = function("decimalToInt");
  private static final SqlOperator DECIMAL_TO_SHORT = function("decimalToShort");
  private static final SqlOperator DECIMAL_TO_BYTE = function("decimalToByte");
  private static final SqlAggFunction CHECKED_SUM = checkedSum("LAKE_CHECKED_SUM", ReturnTypes.AGG_SUM);
  private static final SqlAggFunction CHECKED_SUM0 = checkedSum("LAKE_CHECKED_SUM0",
      ReturnTypes.AGG_SUM_EMPTY_IS_ZERO);

  private final RexBuilder rexBuilder;
  private final RelDataTypeFactory typeFactory;

  private ExactRuntime(RexBuilder rexBuilder) {
    this.rexBuilder = rexBuilder;
    this.typeFactory = rexBuilder.getTypeFactory();
  }

  private static SqlAggFunction checkedSum(String name, org.apache.calcite.sql.type.SqlReturnTypeInference type) {
    return new SqlUserDefinedAggFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, type,
        InferTypes.FIRST_KNOWN, null, AggregateFunctionImpl.create(CheckedSum.class), false, false,
        Optionality.FORBIDDEN);
  }

  private static SqlOperator function(String method) {
    return new SqlUserDefinedFunction(new SqlIdentifier("LAKE_" + method.toUpperCase(java.util.Locale.ROOT),
        SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, InferTypes.FIRST_KNOWN, null,
        ScalarFunctionImpl.create(ExactFunctions.class, method));
  }

  /** The plan with every Enumerable expression made exact. */
  public static RelNode apply(RelNode plan) {
    return new ExactRuntime(plan.getCluster().getRexBuilder()).rewrite(plan);
  }

  /** Units per second a temporal type is held in at run time, or 0 for other types. */
  static long unitsPerSecond(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
        int precision = type.getPrecision();
        return precision <= 3 ? MILLIS : precision <= 6 ? MICROS : NANOS;
      }
      default:
        return 0;
    }
  }

  /** Whether Calcite's runtime holds values of this type in a unit finer than milliseconds. */
  private static boolean fine(RelDataType type) {
    return unitsPerSecond(type) > MILLIS;
  }

  private static boolean fineIn(List<RexNode> nodes) {
    return nodes.stream().anyMatch(n -> fine(n.getType()));
  }

  // ------------------------------------------------------------------------------------------------------------
  // Relational operators

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
      RexNode exact = expanded.accept(this);
      changed |= exact != expanded;
      projects.add(exact);
    }
    RexNode condition = null;
    if (program.getCondition() != null) {
      RexNode expanded = program.expandLocalRef(program.getCondition());
      condition = expanded.accept(this);
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
    RexNode condition = join.getCondition().accept(this);
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
        calls.add(AggregateCall.create(kind == SqlKind.SUM ? CHECKED_SUM : CHECKED_SUM0, false, call.isApproximate(), call.ignoreNulls(),
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

  /** SUM of integers into a BIGINT that fails instead of wrapping. */
  public static final class CheckedSum {
    public CheckedSum() {}

    public long init() {
      return 0L;
    }

    public long add(long sum, long value) {
      long result = sum + value;
      if (((sum ^ result) & (value ^ result)) < 0) {
        throw new dev.lake.query.model.InexactResultException("BIGINT overflow in SUM: the sum is beyond BIGINT's range"
            + " (-9223372036854775808 to 9223372036854775807); SUM(CAST(x AS DECIMAL(38, 0))) sums exactly");
      }
      return result;
    }

    public long merge(long a, long b) {
      return add(a, b);
    }

    public long result(long sum) {
      return sum;
    }
  }

  // ------------------------------------------------------------------------------------------------------------
  // Expressions

  @Override
  public RexNode visitLiteral(RexLiteral literal) {
    if (!fine(literal.getType())) {
      return literal;
    }
    RelDataType bigint = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT),
        literal.getType().isNullable());
    RexNode units = literal.isNull() ? rexBuilder.makeNullLiteral(bigint)
        : rexBuilder.makeLiteral(units(literal), bigint);
    return rexBuilder.makeCall(literal.getType(), SqlStdOperatorTable.REINTERPRET, List.of(units));
  }

  /** A fine temporal literal's value in its runtime unit. */
  private static BigDecimal units(RexLiteral literal) {
    if (literal.isNull()) {
      return null;
    }
    long ups = unitsPerSecond(literal.getType());
    long nanos;
    if (literal.getType().getSqlTypeName() == SqlTypeName.TIME) {
      nanos = LocalTime.parse(literal.getValueAs(TimeString.class).toString()).toNanoOfDay();
      return BigDecimal.valueOf(nanos / (NANOS / ups));
    }
    LocalDateTime at = LocalDateTime.parse(literal.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
    long seconds = at.toEpochSecond(ZoneOffset.UTC);
    return BigDecimal.valueOf(seconds).multiply(BigDecimal.valueOf(ups))
        .add(BigDecimal.valueOf(at.getNano() / (NANOS / ups)));
  }

  @Override
  public RexNode visitCall(RexCall original) {
    if (original.getKind() == SqlKind.SEARCH && fine(original.getOperands().get(0).getType())) {
      return RexUtil.expandSearch(rexBuilder, null, original).accept(this);
    }
    RexCall call = (RexCall) super.visitCall(original);
    SqlKind kind = call.getKind();
    if (kind == SqlKind.CAST) {
      return cast(call);
    }
    if (kind == SqlKind.DIVIDE && call.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
      return divide(call, call.getType());
    }
    if (SqlTypeName.INT_TYPES.contains(call.getType().getSqlTypeName())) {
      SqlOperator checked = kind == SqlKind.PLUS ? SqlStdOperatorTable.CHECKED_PLUS
          : kind == SqlKind.MINUS ? SqlStdOperatorTable.CHECKED_MINUS
          : kind == SqlKind.TIMES ? SqlStdOperatorTable.CHECKED_MULTIPLY
          : kind == SqlKind.MINUS_PREFIX ? SqlStdOperatorTable.CHECKED_UNARY_MINUS : null;
      if (checked != null) {
        return rexBuilder.makeCall(call.getType(), checked, call.getOperands());
      }
    }
    boolean fineOperands = fineIn(call.getOperands());
    if (!fineOperands && !fine(call.getType())) {
      return call;
    }
    if (UNIT_FREE.contains(kind)) {
      return aligned(call);
    }
    if ((kind == SqlKind.PLUS || kind == SqlKind.MINUS) && fine(call.getType())) {
      return intervalArithmetic(call);
    }
    if (kind == SqlKind.EXTRACT) {
      return extract(call);
    }
    if (kind == SqlKind.FLOOR && call.getOperands().size() == 2) {
      return floor(call);
    }
    if (!fineOperands) {
      // A value computed in milliseconds (CURRENT_TIMESTAMP(6), ...), then held in the finer unit.
      RelDataType millis = withPrecision(call.getType(), 3);
      return rescaled(rexBuilder.makeCall(millis, call.getOperator(), call.getOperands()), call.getType());
    }
    throw new QueryRejectedException(describe(call) + " cannot be computed exactly over TIMESTAMP/TIME values of"
        + " precision above 3 yet; CAST the argument to TIMESTAMP(3) or TIME(3) first if milliseconds suffice");
  }

  private static String describe(RexCall call) {
    String name = call.getOperator().getName();
    return name.isEmpty() ? call.getKind().toString() : name;
  }

  /** A unit-free call with its temporal operands in one unit: the result's, or the finest one compared. */
  private RexNode aligned(RexCall call) {
    RelDataType target = null;
    if (SqlTypeFamily.DATETIME.contains(call.getType())) {
      target = call.getType();
    } else {
      for (RexNode operand : call.getOperands()) {
        if (unitsPerSecond(operand.getType()) > 0
            && (target == null || unitsPerSecond(operand.getType()) > unitsPerSecond(target))) {
          target = operand.getType();
        }
      }
    }
    if (target == null || call.getKind() == SqlKind.REINTERPRET) {
      return call;
    }
    List<RexNode> operands = new ArrayList<>();
    boolean changed = false;
    for (RexNode operand : call.getOperands()) {
      if (unitsPerSecond(operand.getType()) > 0 && unitsPerSecond(operand.getType()) != unitsPerSecond(target)
          && sameFamily(operand.getType(), target)) {
        operands.add(rescaled(operand, typeFactory.createTypeWithNullability(target, operand.getType().isNullable())));
        changed = true;
      } else {
        operands.add(operand);
      }
    }
    return changed ? call.clone(call.getType(), operands) : call;
  }

  private static boolean sameFamily(RelDataType a, RelDataType b) {
    return (a.getSqlTypeName() == SqlTypeName.TIME) == (b.getSqlTypeName() == SqlTypeName.TIME);
  }

  /** {@code value} (a temporal expression) held in the unit of {@code target} (same family). */
  private RexNode rescaled(RexNode value, RelDataType target) {
    long from = unitsPerSecond(value.getType());
    long to = unitsPerSecond(target);
    long keep = keep(target);
    if (from == to && keep == 1) {
      return value.getType().equals(target) ? value
          : rexBuilder.makeCall(target, SqlStdOperatorTable.REINTERPRET, List.of(value));
    }
    boolean toInt = target.getSqlTypeName() == SqlTypeName.TIME && to == MILLIS;
    return rexBuilder.makeCall(target, toInt ? RESCALE_TO_INT : RESCALE,
        List.of(value, bigint(from), bigint(to), bigint(keep)));
  }

  /** The granularity a type's precision keeps in its runtime unit (1 unless the precision is below the unit's). */
  private static long keep(RelDataType type) {
    int digits = Long.toString(unitsPerSecond(type)).length() - 1;
    long keep = 1;
    for (int i = Math.max(0, type.getPrecision()); i < digits; i++) {
      keep *= 10;
    }
    return keep;
  }

  private RelDataType withPrecision(RelDataType type, int precision) {
    return typeFactory.createTypeWithNullability(typeFactory.createSqlType(type.getSqlTypeName(), precision),
        type.isNullable());
  }

  private RexNode bigint(long value) {
    return rexBuilder.makeLiteral(BigDecimal.valueOf(value), typeFactory.createSqlType(SqlTypeName.BIGINT));
  }

  private RexNode integer(int value) {
    return rexBuilder.makeLiteral(BigDecimal.valueOf(value), typeFactory.createSqlType(SqlTypeName.INTEGER));
  }

  /** A fine timestamp or time plus or minus an interval. */
  private RexNode intervalArithmetic(RexCall call) {
    List<RexNode> operands = call.getOperands();
    int temporalAt = SqlTypeFamily.DATETIME.contains(operands.get(0).getType()) ? 0 : 1;
    RexNode temporal = rescaled(operands.get(temporalAt), call.getType());
    RexNode interval = operands.get(1 - temporalAt);
    if (operands.size() != 2 || !SqlTypeFamily.DATETIME_INTERVAL.contains(interval.getType())
        || call.getKind() == SqlKind.MINUS && temporalAt == 1) {
      throw new QueryRejectedException(describe(call) + " of " + operands.get(0).getType().getFullTypeString()
          + " and " + operands.get(1).getType().getFullTypeString() + " cannot be computed exactly yet");
    }
    if (call.getKind() == SqlKind.MINUS) {
      interval = rexBuilder.makeCall(interval.getType(), SqlStdOperatorTable.UNARY_MINUS, List.of(interval));
    }
    long ups = unitsPerSecond(call.getType());
    if (SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(interval.getType())) {
      if (call.getType().getSqlTypeName() == SqlTypeName.TIME) {
        return temporal; // months do not move a time of day
      }
      return rexBuilder.makeCall(call.getType(), PLUS_MONTHS, List.of(temporal, interval, bigint(ups)));
    }
    SqlOperator plus = call.getType().getSqlTypeName() == SqlTypeName.TIME ? TIME_PLUS_MILLIS : PLUS_MILLIS;
    return rexBuilder.makeCall(call.getType(), plus, List.of(temporal, interval, bigint(ups)));
  }

  private RexNode extract(RexCall call) {
    TimeUnitRange unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
    RexNode value = call.getOperands().get(1);
    long ups = unitsPerSecond(value.getType());
    switch (unit) {
      case MILLISECOND:
        return seconds(call, value, ups, MILLIS);
      case MICROSECOND:
        return seconds(call, value, ups, MICROS);
      case NANOSECOND:
        return seconds(call, value, ups, NANOS);
      default: {
        RexNode millis = rescaled(value, withPrecision(value.getType(), 3));
        return call.clone(call.getType(), List.of(call.getOperands().get(0), millis));
      }
    }
  }

  private RexNode seconds(RexCall call, RexNode value, long ups, long target) {
    RelDataType bigint = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT),
        value.getType().isNullable());
    RexNode fraction = rexBuilder.makeCall(bigint, SECONDS_OF_MINUTE, List.of(value, bigint(ups), bigint(target)));
    return rexBuilder.makeCast(call.getType(), fraction, false, false);
  }

  /** FLOOR(x TO unit) for units of a second and coarser: computed on milliseconds, held in x's unit. */
  private RexNode floor(RexCall call) {
    RexNode value = call.getOperands().get(0);
    TimeUnitRange unit = ((RexLiteral) call.getOperands().get(1)).getValueAs(TimeUnitRange.class);
    if (unit == TimeUnitRange.MILLISECOND || unit == TimeUnitRange.MICROSECOND || unit == TimeUnitRange.NANOSECOND
        || !fine(value.getType())) {
      throw new QueryRejectedException("FLOOR to " + unit + " over " + value.getType().getFullTypeString()
          + " cannot be computed exactly yet");
    }
    RelDataType millis = withPrecision(value.getType(), 3);
    RexNode floored = rexBuilder.makeCall(withPrecision(call.getType(), 3), call.getOperator(),
        List.of(rescaled(value, millis), call.getOperands().get(1)));
    return rescaled(floored, call.getType());
  }

  // ------------------------------------------------------------------------------------------------------------
  // CAST

  private RexNode cast(RexCall call) {
    RexNode operand = call.getOperands().get(0);
    RelDataType from = operand.getType();
    RelDataType to = call.getType();
    if (fine(from) || fine(to)) {
      return temporalCast(call, operand, from, to);
    }
    switch (to.getSqlTypeName()) {
      case DECIMAL:
        return decimalCast(call, operand, from, to);
      case BIGINT:
        return from.getSqlTypeName() == SqlTypeName.DECIMAL ? rexBuilder.makeCall(to, DECIMAL_TO_LONG,
            List.of(operand)) : call;
      case INTEGER:
        return from.getSqlTypeName() == SqlTypeName.DECIMAL ? rexBuilder.makeCall(to, DECIMAL_TO_INT,
            List.of(operand)) : call;
      case SMALLINT:
        return from.getSqlTypeName() == SqlTypeName.DECIMAL ? rexBuilder.makeCall(to, DECIMAL_TO_SHORT,
            List.of(operand)) : call;
      case TINYINT:
        return from.getSqlTypeName() == SqlTypeName.DECIMAL ? rexBuilder.makeCall(to, DECIMAL_TO_BYTE,
            List.of(operand)) : call;
      default:
        return call;
    }
  }

  private RexNode decimalCast(RexCall call, RexNode operand, RelDataType from, RelDataType to) {
    RexNode precision = integer(to.getPrecision());
    RexNode scale = integer(to.getScale());
    if (operand instanceof RexCall && ((RexCall) operand).getOperator() == DIVIDE) {
      // CAST(x / y AS DECIMAL(p, s)) rounds once, at s (rounding twice could land on the wrong side of a tie).
      RexCall division = (RexCall) operand;
      if (division.getType().getScale() >= to.getScale()) {
        return rexBuilder.makeCall(to, DIVIDE, List.of(division.getOperands().get(0),
            division.getOperands().get(1), precision, scale));
      }
    }
    switch (from.getSqlTypeName()) {
      case DECIMAL:
        return rexBuilder.makeCall(to, TO_DECIMAL, List.of(operand, precision, scale));
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return rexBuilder.makeCall(to, TO_DECIMAL, List.of(exactDecimal(operand), precision, scale));
      case REAL:
      case FLOAT:
      case DOUBLE:
        return rexBuilder.makeCall(to, DOUBLE_TO_DECIMAL, List.of(operand, precision, scale));
      case CHAR:
      case VARCHAR:
        return rexBuilder.makeCall(to, STRING_TO_DECIMAL, List.of(operand, precision, scale));
      default:
        return call;
    }
  }

  /** An integer expression as a DECIMAL(19, 0) (exact: Calcite's own widening cast). */
  private RexNode exactDecimal(RexNode operand) {
    if (operand.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
      return operand;
    }
    RelDataType decimal = typeFactory.createTypeWithNullability(
        typeFactory.createSqlType(SqlTypeName.DECIMAL, 19, 0), operand.getType().isNullable());
    return rexBuilder.makeCast(decimal, operand, false, false);
  }

  private RexNode divide(RexCall call, RelDataType type) {
    return rexBuilder.makeCall(type, DIVIDE, List.of(exactDecimal(call.getOperands().get(0)),
        exactDecimal(call.getOperands().get(1)), integer(type.getPrecision()), integer(type.getScale())));
  }

  private RexNode temporalCast(RexCall call, RexNode operand, RelDataType from, RelDataType to) {
    SqlTypeName source = from.getSqlTypeName();
    SqlTypeName target = to.getSqlTypeName();
    boolean fromTimestamp = source == SqlTypeName.TIMESTAMP || source == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    boolean toTimestamp = target == SqlTypeName.TIMESTAMP || target == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    long ups = unitsPerSecond(from);
    long toUps = unitsPerSecond(to);
    if (fromTimestamp && toTimestamp || source == SqlTypeName.TIME && target == SqlTypeName.TIME) {
      return rescaled(operand, to); // lake's session time zone is UTC: a local timestamp and an instant agree
    }
    if (fromTimestamp && target == SqlTypeName.DATE) {
      return rexBuilder.makeCall(to, TO_DATE, List.of(operand, bigint(ups)));
    }
    if (source == SqlTypeName.DATE && toTimestamp) {
      return rexBuilder.makeCall(to, FROM_DATE, List.of(operand, bigint(toUps)));
    }
    if (fromTimestamp && target == SqlTypeName.TIME) {
      boolean toInt = toUps == MILLIS;
      return rexBuilder.makeCall(to, toInt ? TIME_OF_DAY_TO_INT : TIME_OF_DAY,
          List.of(operand, bigint(ups), bigint(toUps), bigint(keep(to))));
    }
    if (SqlTypeFamily.CHARACTER.contains(to) && ups > 0) {
      RelDataType varchar = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.VARCHAR),
          from.isNullable());
      RexNode text = rexBuilder.makeCall(varchar, source == SqlTypeName.TIME ? TIME_STRING : TIMESTAMP_STRING,
          List.of(operand, bigint(ups), integer(from.getPrecision())));
      return to.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED && target == SqlTypeName.VARCHAR ? text
          : rexBuilder.makeCast(to, text, false, false);
    }
    if (SqlTypeFamily.CHARACTER.contains(from) && toUps > 0) {
      return rexBuilder.makeCall(to, target == SqlTypeName.TIME ? PARSE_TIME : PARSE_TIMESTAMP,
          List.of(operand, bigint(toUps), bigint(keep(to))));
    }
    throw new QueryRejectedException("CAST from " + from.getFullTypeString() + " to " + to.getFullTypeString()
        + " cannot be computed exactly yet");
  }
}
