package dev.lake.query.plan.enumerable;

import dev.lake.query.model.InexactResultException;
import dev.lake.query.model.QueryRejectedException;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Makes the expressions of one physical plan exact (see {@link ExactRuntime}): dispatches each call to the rewrite
 * that owns it — fine temporal values and any TIME or TIMESTAMP cast to text to {@link TemporalRewrites}, DECIMAL
 * division and casts to {@link DecimalRewrites} — and turns integer {@code + - *} into Calcite's checked operators, which fail on overflow
 * instead of wrapping.
 */
final class ExactExpressions extends RexShuttle {
  private static final SqlOperator NEGATE = ExactOperators.function(IntegerFunctions.class, "negate");
  private static final SqlOperator ABS = ExactOperators.function(IntegerFunctions.class, "abs");

  private final RexBuilder rexBuilder;
  private final TemporalRewrites temporal;
  private final DecimalRewrites decimal;

  ExactExpressions(RexBuilder rexBuilder) {
    this.rexBuilder = rexBuilder;
    this.temporal = new TemporalRewrites(rexBuilder);
    this.decimal = new DecimalRewrites(rexBuilder);
  }

  @Override
  public RexNode visitLiteral(RexLiteral literal) {
    if (SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(literal.getType()) && !literal.isNull()) {
      java.math.BigDecimal months = literal.getValueAs(java.math.BigDecimal.class);
      if (months.compareTo(java.math.BigDecimal.valueOf(Integer.MIN_VALUE)) < 0
          || months.compareTo(java.math.BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
        throw new InexactResultException("INTERVAL overflow: an interval of " + months.toPlainString()
            + " months is beyond what an interval holds (" + Integer.MAX_VALUE + " months)");
      }
    }
    return TemporalRewrites.fine(literal.getType()) ? temporal.literal(literal) : literal;
  }

  @Override
  public RexNode visitCall(RexCall original) {
    if (original.getKind() == SqlKind.SEARCH && TemporalRewrites.fine(original.getOperands().get(0).getType())) {
      return RexUtil.expandSearch(rexBuilder, null, original).accept(this);
    }
    RexCall call = (RexCall) super.visitCall(original);
    SqlKind kind = call.getKind();
    if (kind == SqlKind.CAST) {
      RexNode operand = call.getOperands().get(0);
      return TemporalRewrites.fine(operand.getType()) || TemporalRewrites.fine(call.getType())
          || TemporalRewrites.toText(operand.getType(), call.getType())
          ? temporal.cast(call, operand, operand.getType(), call.getType()) : decimal.cast(call);
    }
    if (kind == SqlKind.DIVIDE && call.getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
      return decimal.divide(call, call.getType());
    }
    if (call.getOperator() == SqlStdOperatorTable.ROUND || call.getOperator() == SqlStdOperatorTable.TRUNCATE) {
      RexNode rounded = decimal.roundDouble(call, call.getOperator() == SqlStdOperatorTable.TRUNCATE);
      if (rounded != null) {
        return rounded;
      }
    }
    RexNode checked = checkedInteger(call);
    if (checked != null) {
      return checked;
    }
    boolean fineOperands = TemporalRewrites.fineIn(call.getOperands());
    if (!fineOperands && !TemporalRewrites.fine(call.getType()) && TemporalRewrites.datetimeArithmetic(call)) {
      return temporal.checkedDatetime(call);
    }
    if (!fineOperands && !TemporalRewrites.fine(call.getType())) {
      return call;
    }
    RexNode exact = temporal.call(call, fineOperands);
    if (exact != null) {
      return exact;
    }
    throw new QueryRejectedException(describe(call) + " cannot be computed exactly over TIMESTAMP/TIME values of"
        + " precision above 3 yet; CAST the argument to TIMESTAMP(3) or TIME(3) first if milliseconds suffice");
  }

  /**
   * Integer {@code + - *} as Calcite's checked operators (they fail on overflow), negation and ABS as {@link
   * IntegerFunctions}' (which name the type), or null.
   */
  private RexNode checkedInteger(RexCall call) {
    SqlTypeName type = call.getType().getSqlTypeName();
    if (!SqlTypeName.INT_TYPES.contains(type)) {
      return null;
    }
    SqlKind kind = call.getKind();
    if (kind == SqlKind.MINUS_PREFIX || call.getOperator() == SqlStdOperatorTable.ABS) {
      RelDataTypeFactory typeFactory = rexBuilder.getTypeFactory();
      RelDataType bigint = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT),
          call.getType().isNullable());
      RexNode exact = rexBuilder.makeCall(bigint, kind == SqlKind.MINUS_PREFIX ? NEGATE : ABS,
          List.of(call.getOperands().get(0), rexBuilder.makeLiteral(type.getName())));
      return rexBuilder.makeCast(call.getType(), exact, false, false);
    }
    SqlOperator checked = kind == SqlKind.PLUS ? SqlStdOperatorTable.CHECKED_PLUS
        : kind == SqlKind.MINUS ? SqlStdOperatorTable.CHECKED_MINUS
        : kind == SqlKind.TIMES ? SqlStdOperatorTable.CHECKED_MULTIPLY
 : null;
    return checked == null ? null : rexBuilder.makeCall(call.getType(), checked, call.getOperands());
  }

  /**
   * A CAST to the character type {@code to} computed by {@code function}, which returns VARCHAR text: the call itself
   * for an unbounded VARCHAR, else the text cast to {@code to} (padded or cut to its length).
   */
  static RexNode text(RexBuilder rexBuilder, SqlOperator function, List<RexNode> operands, RelDataType to) {
    if (to.getSqlTypeName() == SqlTypeName.VARCHAR && to.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED) {
      return rexBuilder.makeCall(to, function, operands);
    }
    RelDataTypeFactory typeFactory = rexBuilder.getTypeFactory();
    RelDataType varchar = typeFactory.createTypeWithNullability(typeFactory.createTypeWithCharsetAndCollation(
        typeFactory.createSqlType(SqlTypeName.VARCHAR), to.getCharset(), to.getCollation()), to.isNullable());
    return rexBuilder.makeCast(to, rexBuilder.makeCall(varchar, function, operands), false, false);
  }

  static String describe(RexCall call) {
    String name = call.getOperator().getName();
    return name.isEmpty() ? call.getKind().toString() : name;
  }
}
