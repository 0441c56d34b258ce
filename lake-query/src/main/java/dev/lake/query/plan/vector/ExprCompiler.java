package dev.lake.query.plan.vector;

import dev.lake.query.vector.Arithmetic;
import dev.lake.query.vector.Col;
import dev.lake.query.vector.Comparison;
import dev.lake.query.vector.Expr;
import dev.lake.query.vector.Exprs;
import dev.lake.query.vector.Kind;
import dev.lake.query.vector.Unsupported;
import dev.lake.query.vector.ResultType;
import dev.lake.query.vector.VectorPlan;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexSlot;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;

/**
 * Compiles Calcite row expressions over an input of known column shapes into the vectorized executor's
 * {@link Expr}s ({@link Exprs}), or says why it cannot ({@link Unsupported}).
 */
final class ExprCompiler {
  private final RexBuilder rexBuilder;
  private final List<Col> inputs;

  /** @param inputs the kind and scale of each input column */
  ExprCompiler(RexBuilder rexBuilder, List<Col> inputs) {
    this.rexBuilder = rexBuilder;
    this.inputs = List.copyOf(inputs);
  }

  /** The kind and scale a SQL type is held as. */
  static Col shape(RelDataType type) throws Unsupported {
    switch (type.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case DATE:
        return Exprs.shape(Kind.LONG, 0);
      case DECIMAL:
        return Exprs.shape(Kind.LONG, type.getScale());
      case DOUBLE:
      case FLOAT:
      case REAL:
        return Exprs.shape(Kind.DOUBLE, 0);
      case CHAR:
      case VARCHAR:
        return Exprs.shape(Kind.STRING, 0);
      case BOOLEAN:
        return Exprs.shape(Kind.BOOL, 0);
      default:
        throw new Unsupported("type " + type.getSqlTypeName());
    }
  }

  /** How the vectorized executor returns a result column of SQL type {@code type} to the row runtime. */
  static VectorPlan.Output output(RelDataType type) throws Unsupported {
    ResultType result;
    switch (type.getSqlTypeName()) {
      case BIGINT:
        result = ResultType.BIGINT;
        break;
      case INTEGER:
        result = ResultType.INTEGER;
        break;
      case SMALLINT:
        result = ResultType.SMALLINT;
        break;
      case TINYINT:
        result = ResultType.TINYINT;
        break;
      case DATE:
        result = ResultType.DATE;
        break;
      case DECIMAL:
        result = ResultType.DECIMAL;
        break;
      case DOUBLE:
        result = ResultType.DOUBLE;
        break;
      case FLOAT:
      case REAL:
        result = ResultType.FLOAT;
        break;
      case BOOLEAN:
        result = ResultType.BOOLEAN;
        break;
      case CHAR:
      case VARCHAR:
        result = ResultType.STRING;
        break;
      default:
        throw new Unsupported("result type " + type.getSqlTypeName());
    }
    return new VectorPlan.Output(result, Math.max(0, type.getScale()));
  }

  Expr compile(RexNode node) throws Unsupported {
    RexNode expanded = RexUtil.expandSearch(rexBuilder, null, node);
    if (expanded instanceof RexSlot) {
      int index = ((RexSlot) expanded).getIndex();
      return Exprs.input(index, inputs.get(index));
    }
    if (expanded instanceof RexLiteral) {
      return literal((RexLiteral) expanded);
    }
    if (!(expanded instanceof RexCall)) {
      throw new Unsupported("expression " + expanded.getKind());
    }
    RexCall call = (RexCall) expanded;
    Col type = call.getKind() == SqlKind.CHAR_LENGTH ? null : shape(call.getType());
    switch (call.getKind()) {
      case EXTRACT:
        return extract(call);
      case LIKE:
        return like(call);
      case PLUS:
      case MINUS:
      case TIMES:
      case DIVIDE:
        return arith(call, type);
      case MINUS_PREFIX:
        return Exprs.arith(Arithmetic.MINUS, Exprs.zero(), operand(call, 0), type.kind(), type.scale(),
            isDecimal(call));
      case EQUALS:
        return compare(Comparison.EQUAL, call);
      case NOT_EQUALS:
        return compare(Comparison.NOT_EQUAL, call);
      case LESS_THAN:
        return compare(Comparison.LESS, call);
      case LESS_THAN_OR_EQUAL:
        return compare(Comparison.LESS_OR_EQUAL, call);
      case GREATER_THAN:
        return compare(Comparison.GREATER, call);
      case GREATER_THAN_OR_EQUAL:
        return compare(Comparison.GREATER_OR_EQUAL, call);
      case AND:
      case OR:
        return Exprs.connective(call.getKind() == SqlKind.AND, operands(call));
      case NOT:
        return Exprs.not(operand(call, 0));
      case IS_NULL:
      case IS_NOT_NULL:
        return Exprs.nullTest(operand(call, 0), call.getKind() == SqlKind.IS_NOT_NULL);
      case IS_TRUE:
      case IS_NOT_TRUE:
        return Exprs.truthTest(operand(call, 0), true, call.getKind() == SqlKind.IS_NOT_TRUE);
      case IS_FALSE:
      case IS_NOT_FALSE:
        return Exprs.truthTest(operand(call, 0), false, call.getKind() == SqlKind.IS_NOT_FALSE);
      case CAST:
        return cast(operand(call, 0), call.getOperands().get(0).getType(), call.getType());
      case CASE:
        return caseOf(call, type);
      default:
        if (call.getOperator() == org.apache.calcite.sql.fun.SqlStdOperatorTable.SUBSTRING) {
          return substring(call);
        }
        throw new Unsupported("function " + call.getOperator().getName());
    }
  }

  /**
   * SUBSTRING of a string from a constant position of at least 1 for a constant length (or to the end): the bounds
   * every Calcite version reads alike (a negative start counts from the end in some).
   */
  private Expr substring(RexCall call) throws Unsupported {
    List<RexNode> operands = call.getOperands();
    Expr input = compile(operands.get(0));
    Integer start = smallInt(operands.get(1));
    Integer length = operands.size() > 2 ? smallInt(operands.get(2)) : Integer.valueOf(-1);
    if (input.kind() != Kind.STRING || start == null || start < 1 || length == null
        || operands.size() > 2 && length < 0) {
      throw new Unsupported("SUBSTRING of a non-string, from a computed or non-positive position, or for a computed"
          + " or negative length");
    }
    return Exprs.substring(input, start, length);
  }

  /** The value of an integer literal between -1,000,000 and 1,000,000, or null. */
  private static Integer smallInt(RexNode node) {
    if (!(node instanceof RexLiteral) || ((RexLiteral) node).isNull()
        || !SqlTypeName.INT_TYPES.contains(node.getType().getSqlTypeName())) {
      return null;
    }
    BigDecimal value = ((RexLiteral) node).getValueAs(BigDecimal.class);
    return value == null || value.abs().compareTo(BigDecimal.valueOf(1_000_000)) > 0 ? null : value.intValue();
  }

  private Expr extract(RexCall call) throws Unsupported {
    RexNode unit = call.getOperands().get(0);
    RexNode date = call.getOperands().get(1);
    Object range = unit instanceof RexLiteral ? ((RexLiteral) unit).getValue() : null;
    if (date.getType().getSqlTypeName() != SqlTypeName.DATE
        || range != org.apache.calcite.avatica.util.TimeUnitRange.YEAR
        && range != org.apache.calcite.avatica.util.TimeUnitRange.MONTH) {
      throw new Unsupported("EXTRACT of " + range + " from " + date.getType().getSqlTypeName());
    }
    return Exprs.datePart(compile(date), range == org.apache.calcite.avatica.util.TimeUnitRange.YEAR);
  }

  private Expr like(RexCall call) throws Unsupported {
    if (call.getOperands().size() != 2 || !(call.getOperands().get(1) instanceof RexLiteral)
        || call.getOperator() != org.apache.calcite.sql.fun.SqlStdOperatorTable.LIKE) {
      throw new Unsupported("LIKE with an escape, a computed pattern or negated");
    }
    Expr input = compile(call.getOperands().get(0));
    String pattern = ((RexLiteral) call.getOperands().get(1)).getValueAs(String.class);
    Expr like = Exprs.like(input, pattern);
    if (like == null) {
      throw new Unsupported("LIKE pattern " + pattern);
    }
    return like;
  }

  private Expr arith(RexCall call, Col type) throws Unsupported {
    if (type.kind() != Kind.LONG && type.kind() != Kind.DOUBLE) {
      throw new Unsupported("arithmetic on " + call.getType().getSqlTypeName());
    }
    Arithmetic op = call.getKind() == SqlKind.PLUS ? Arithmetic.PLUS : call.getKind() == SqlKind.MINUS
        ? Arithmetic.MINUS : call.getKind() == SqlKind.TIMES ? Arithmetic.TIMES : Arithmetic.DIVIDE;
    for (RexNode operand : call.getOperands()) {
      SqlTypeName name = operand.getType().getSqlTypeName();
      if (name == SqlTypeName.DATE || SqlTypeName.INTERVAL_TYPES.contains(name)) {
        throw new Unsupported("date arithmetic");
      }
    }
    return Exprs.arith(op, operand(call, 0), operand(call, 1), type.kind(), type.scale(), isDecimal(call));
  }

  private static boolean isDecimal(RexCall call) {
    return call.getType().getSqlTypeName() == SqlTypeName.DECIMAL;
  }

  private Expr compare(Comparison op, RexCall call) throws Unsupported {
    Expr left = operand(call, 0);
    Expr right = operand(call, 1);
    boolean strings = left.kind() == Kind.STRING || right.kind() == Kind.STRING;
    if (strings && left.kind() != right.kind()) {
      throw new Unsupported("comparison of a string with " + (strings ? "another type" : ""));
    }
    if (left.kind() == Kind.BOOL != (right.kind() == Kind.BOOL)) {
      throw new Unsupported("comparison of a boolean with another type");
    }
    return Exprs.compare(op, left, right);
  }

  private Expr cast(Expr operand, RelDataType from, RelDataType to) throws Unsupported {
    Col target = shape(to);
    if (target.kind() == Kind.STRING || operand.kind() == Kind.STRING) {
      if (target.kind() == operand.kind() && to.getSqlTypeName() == SqlTypeName.VARCHAR) {
        return operand;
      }
      throw new Unsupported("CAST to or from a string");
    }
    if ((from.getSqlTypeName() == SqlTypeName.DATE) != (to.getSqlTypeName() == SqlTypeName.DATE)) {
      throw new Unsupported("CAST between DATE and another type");
    }
    if (target.kind() == Kind.BOOL || operand.kind() == Kind.BOOL) {
      if (target.kind() == operand.kind()) {
        return operand;
      }
      throw new Unsupported("CAST to or from BOOLEAN");
    }
    if (operand.kind() == Kind.DOUBLE && target.kind() != Kind.DOUBLE) {
      // NaN, the infinities and values beyond the type are refused naming the value by Calcite's runtime
      // (DecimalFunctions); this executor's cast would truncate them (docs/api.md, "Errors")
      throw new Unsupported("CAST of a DOUBLE or REAL to an integer or DECIMAL type");
    }
    return Exprs.cast(operand, target.kind(), target.scale());
  }

  private Expr caseOf(RexCall call, Col type) throws Unsupported {
    List<RexNode> operands = call.getOperands();
    List<Expr> conditions = new ArrayList<>();
    List<Expr> values = new ArrayList<>();
    for (int i = 0; i + 1 < operands.size(); i += 2) {
      conditions.add(compile(operands.get(i)));
      values.add(coerce(operands.get(i + 1), call.getType()));
    }
    Expr otherwise = coerce(operands.get(operands.size() - 1), call.getType());
    return Exprs.caseOf(conditions, values, otherwise, type.kind(), type.scale());
  }

  private Expr coerce(RexNode node, RelDataType type) throws Unsupported {
    Expr expr = compile(node);
    Col target = shape(type);
    if (expr.kind() == target.kind() && expr.scale() == target.scale()) {
      return expr;
    }
    return cast(expr, node.getType(), type);
  }

  private Expr literal(RexLiteral literal) throws Unsupported {
    if (literal.getTypeName() == SqlTypeName.SARG || literal.getTypeName() == SqlTypeName.SYMBOL) {
      // A program's separate step for a SEARCH's range set or a function's flag: the calls that read them get the
      // literal itself (see VectorPlanner), so this step is never read.
      return Exprs.zero();
    }
    Col type = shape(literal.getType());
    boolean isNull = literal.isNull();
    if (type.kind() == Kind.STRING || literal.getType().getSqlTypeName() == SqlTypeName.CHAR) {
      return Exprs.stringLiteral(isNull ? null : literal.getValueAs(String.class));
    } else if (type.kind() == Kind.DOUBLE) {
      return Exprs.doubleLiteral(isNull ? null : literal.getValueAs(Double.class));
    } else if (type.kind() == Kind.BOOL) {
      return Exprs.boolLiteral(isNull ? null : literal.getValueAs(Boolean.class));
    } else if (literal.getType().getSqlTypeName() == SqlTypeName.DATE) {
      DateString date = isNull ? null : literal.getValueAs(DateString.class);
      return Exprs.dateLiteral(date == null ? null : date.getDaysSinceEpoch());
    }
    return Exprs.numberLiteral(isNull ? null : literal.getValueAs(BigDecimal.class), type.scale());
  }

  private Expr operand(RexCall call, int i) throws Unsupported {
    return compile(call.getOperands().get(i));
  }

  private List<Expr> operands(RexCall call) throws Unsupported {
    List<Expr> out = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      out.add(compile(operand));
    }
    return out;
  }
}
