package dev.lake.query.plan.enumerable;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The exact rewrite of decimal arithmetic in Calcite's Enumerable runtime (see {@link ExactRuntime}): DECIMAL
 * division and CAST to DECIMAL or to an integer become {@link DecimalFunctions}' decimal calls, which round half-up at
 * the result scale and fail when the result does not fit its type (Calcite computes division with 16 significant
 * digits and truncates casts); CAST of a DECIMAL to text writes every digit, with no exponent. A CAST of a DOUBLE
 * or REAL to an integer type first checks the value is finite and in the type's range (Calcite reads NaN as 0 for
 * INTEGER and fails without naming the value for BIGINT), and ROUND and TRUNCATE of a DOUBLE or REAL keep NaN and the
 * infinities (Calcite fails on them).
 */
final class DecimalRewrites {
  private static final SqlOperator DIVIDE = function("divide");
  private static final SqlOperator TO_DECIMAL = function("toDecimal");
  private static final SqlOperator DOUBLE_TO_DECIMAL = function("doubleToDecimal");
  private static final SqlOperator STRING_TO_DECIMAL = function("stringToDecimal");
  private static final SqlOperator DECIMAL_TO_LONG = function("decimalToLong");
  private static final SqlOperator DECIMAL_TO_INT = function("decimalToInt");
  private static final SqlOperator DECIMAL_TO_SHORT = function("decimalToShort");
  private static final SqlOperator DECIMAL_TO_BYTE = function("decimalToByte");
  private static final SqlOperator DECIMAL_STRING = function("decimalString");
  private static final SqlOperator INTEGRAL_DOUBLE = function("integralDouble");
  private static final SqlOperator ROUND_DOUBLE = function("roundDouble");
  private static final SqlOperator TRUNCATE_DOUBLE = function("truncateDouble");

  /** The operator calling {@code DecimalFunctions.<method>}. */
  private static SqlOperator function(String method) {
    return ExactOperators.function(DecimalFunctions.class, method);
  }

  private final RexBuilder rexBuilder;
  private final RelDataTypeFactory typeFactory;

  DecimalRewrites(RexBuilder rexBuilder) {
    this.rexBuilder = rexBuilder;
    this.typeFactory = rexBuilder.getTypeFactory();
  }

  /** A CAST between non-temporal types: to DECIMAL rounded HALF_UP and checked, DECIMAL to an integer checked. */
  RexNode cast(RexCall call) {
    RexNode operand = call.getOperands().get(0);
    RelDataType from = operand.getType();
    RelDataType to = call.getType();
    if (SqlTypeName.INT_TYPES.contains(to.getSqlTypeName()) && SqlTypeName.APPROX_TYPES.contains(
        from.getSqlTypeName())) {
      RexNode checked = rexBuilder.makeCall(asDouble(from), INTEGRAL_DOUBLE, List.of(operand,
          rexBuilder.makeLiteral(to.getSqlTypeName().getName())));
      return rexBuilder.makeCast(to, checked, false, false);
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
      case CHAR:
      case VARCHAR:
        return from.getSqlTypeName() == SqlTypeName.DECIMAL ? ExactExpressions.text(rexBuilder,
            DECIMAL_STRING, List.of(operand, integer(from.getScale())), to) : call;
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

  /**
   * ROUND or TRUNCATE ({@code truncate}) of a DOUBLE or REAL to an integer number of places, through
   * {@link DecimalFunctions#roundDouble}; null when the call is another (Calcite's own then computes it).
   */
  RexNode roundDouble(RexCall call, boolean truncate) {
    List<RexNode> operands = call.getOperands();
    RelDataType type = call.getType();
    if (!SqlTypeName.APPROX_TYPES.contains(type.getSqlTypeName()) || operands.size() > 2) {
      return null;
    }
    if (operands.size() == 2) {
      SqlTypeName places = operands.get(1).getType().getSqlTypeName();
      if (!SqlTypeName.INT_TYPES.contains(places) || places == SqlTypeName.BIGINT) {
        return null;
      }
    }
    RexNode places = operands.size() == 2 ? operands.get(1) : integer(0);
    RexNode rounded = rexBuilder.makeCall(asDouble(type), truncate ? TRUNCATE_DOUBLE : ROUND_DOUBLE,
        List.of(operands.get(0), places));
    return type.getSqlTypeName() == SqlTypeName.REAL ? rexBuilder.makeCast(type, rounded, false, false) : rounded;
  }

  /** DOUBLE, nullable as {@code type}. */
  private RelDataType asDouble(RelDataType type) {
    return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE), type.isNullable());
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

  /** A DECIMAL division, rounded HALF_UP at the result's scale and checked against its precision. */
  RexNode divide(RexCall call, RelDataType type) {
    return rexBuilder.makeCall(type, DIVIDE, List.of(exactDecimal(call.getOperands().get(0)),
        exactDecimal(call.getOperands().get(1)), integer(type.getPrecision()), integer(type.getScale())));
  }

  private RexNode integer(int value) {
    return rexBuilder.makeLiteral(BigDecimal.valueOf(value), typeFactory.createSqlType(SqlTypeName.INTEGER));
  }
}
