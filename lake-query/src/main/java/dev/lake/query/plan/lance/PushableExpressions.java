package dev.lake.query.plan.lance;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Sarg;

/**
 * Which expressions, aggregates and types Lance's SQL engine (DataFusion) evaluates exactly as Calcite would, so a
 * subtree using only them may be pushed down: everything else stays in Calcite. Deliberately conservative — a
 * construct is here only when its semantics were checked to agree (or differ only in representation, which the
 * result conversion repairs):
 *
 * <ul>
 *   <li>types: booleans, signed integers, decimals up to 38 digits, REAL/DOUBLE, strings, DATE, TIMESTAMP without a
 *       zone; intervals only as literal operands of date arithmetic;
 *   <li>AND/OR/NOT, comparisons, IS [NOT] NULL/TRUE/FALSE/DISTINCT FROM, + - * (and / except on decimals, whose
 *       result scale rules differ), unary minus, CASE, COALESCE, string concatenation, UPPER/LOWER, SEARCH (IN and
 *       BETWEEN) over literals, LIKE with a literal pattern, SUBSTRING with literal positions, EXTRACT of
 *       YEAR/QUARTER/MONTH/DAY/HOUR/MINUTE, date +/- an interval literal;
 *   <li>casts that lose nothing: to the same type (nullability only), integers and decimals widened, exact to
 *       DOUBLE, DATE to TIMESTAMP (never to or from strings: their formatting differs);
 *   <li>aggregates COUNT, SUM, MIN, MAX, AVG (DISTINCT and FILTER allowed) — but DataFusion wraps integer sums
 *       silently and truncates decimal averages to 6 places, so a subtree with those runs in Lance's SQL engine
 *       only if it never needs them exactly ({@link #inexactInLance}); lake's vectorized executor and Calcite's
 *       runtime compute them exactly.
 * </ul>
 *
 * <p>String literals are bounded: Lance's SQL engine materializes a literal once per row of each batch (a
 * {@code SELECT '<600 KB>' FROM t} over a few thousand rows passes its 2 GiB string offsets and aborts the whole
 * process), so expressions holding more than {@link #MAX_LITERAL_BYTES} bytes of string literals stay in Calcite,
 * which evaluates them row by row.
 */
public final class PushableExpressions {
  private static final Set<TimeUnitRange> EXTRACT_UNITS = EnumSet.of(TimeUnitRange.YEAR, TimeUnitRange.QUARTER,
      TimeUnitRange.MONTH, TimeUnitRange.DAY, TimeUnitRange.HOUR, TimeUnitRange.MINUTE);
  private static final int MAX_DECIMAL_PRECISION = 38;
  /**
   * The string literal bytes one pushed projection list or condition may hold: Lance's engine repeats each literal
   * for every row of a batch (8,192 rows), so 4 KiB costs it at most 32 MiB a batch, far from its 2 GiB offsets.
   */
  static final int MAX_LITERAL_BYTES = 4_096;

  private PushableExpressions() {}

  /** A type whose values DataFusion and Calcite read, compare and return alike. */
  static boolean type(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case BOOLEAN:
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case REAL:
      case FLOAT:
      case DOUBLE:
      case CHAR:
      case VARCHAR:
      case DATE:
        return true;
      case DECIMAL:
        return type.getPrecision() <= MAX_DECIMAL_PRECISION && type.getScale() >= 0;
      case TIMESTAMP:
        return type.getPrecision() <= 9;
      default:
        return false;
    }
  }

  /** Every field of a row type is of a pushable type. */
  static boolean rowType(RelDataType rowType) {
    return rowType.getFieldList().stream().allMatch(field -> type(field.getType()));
  }

  /** Expressions Lance's SQL engine evaluates like Calcite, holding at most {@link #MAX_LITERAL_BYTES} together. */
  static boolean all(List<? extends RexNode> nodes) {
    long bytes = 0;
    for (RexNode node : nodes) {
      bytes += literalBytes(node);
    }
    return bytes <= MAX_LITERAL_BYTES && nodes.stream().allMatch(PushableExpressions::pushable);
  }

  /** An expression Lance's SQL engine evaluates like Calcite, within the literal bound. */
  static boolean expression(RexNode node) {
    return all(List.of(node));
  }

  /** The bytes of the string and binary literals in {@code node} (each counted where it occurs). */
  private static long literalBytes(RexNode node) {
    if (node instanceof RexLiteral literal) {
      if (literal.getTypeName() == SqlTypeName.SARG) {
        return 0; // an IN list or range: Lance's engine tests it once per row, it never repeats its values
      }
      if (SqlTypeFamily.CHARACTER.contains(literal.getType())) {
        String text = literal.getValueAs(String.class);
        return text == null ? 0 : text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      }
      if (SqlTypeFamily.BINARY.contains(literal.getType())) {
        org.apache.calcite.avatica.util.ByteString bytes =
            literal.getValueAs(org.apache.calcite.avatica.util.ByteString.class);
        return bytes == null ? 0 : bytes.length();
      }
      return 0;
    }
    if (node instanceof RexCall call) {
      long bytes = 0;
      for (RexNode operand : call.getOperands()) {
        bytes += literalBytes(operand);
      }
      return bytes;
    }
    return 0;
  }

  private static boolean pushable(RexNode node) {
    if (node instanceof RexInputRef) {
      return type(node.getType());
    }
    if (node instanceof RexLiteral) {
      return literal((RexLiteral) node);
    }
    if (!(node instanceof RexCall) || !type(node.getType())) {
      return false;
    }
    RexCall call = (RexCall) node;
    List<RexNode> operands = call.getOperands();
    switch (call.getKind()) {
      case AND:
      case OR:
      case NOT:
      case EQUALS:
      case NOT_EQUALS:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
      case IS_NULL:
      case IS_NOT_NULL:
      case IS_TRUE:
      case IS_NOT_TRUE:
      case IS_FALSE:
      case IS_NOT_FALSE:
      case IS_DISTINCT_FROM:
      case IS_NOT_DISTINCT_FROM:
      case CASE:
      case COALESCE:
      case MINUS_PREFIX:
      case PLUS_PREFIX:
      case TIMES:
        return all(operands);
      case PLUS:
      case MINUS:
        return arithmetic(call);
      case DIVIDE:
        return call.getType().getSqlTypeName() != SqlTypeName.DECIMAL && all(operands);
      case MOD:
        return SqlTypeFamily.INTEGER.contains(call.getType()) && all(operands);
      case SEARCH:
        return search(call);
      case LIKE:
        return like(call);
      case EXTRACT:
        return extract(call);
      case CAST:
        return cast(call);
      default:
        break;
    }
    if (call.getOperator() == SqlStdOperatorTable.CONCAT || call.getOperator() == SqlStdOperatorTable.UPPER
        || call.getOperator() == SqlStdOperatorTable.LOWER) {
      return all(operands);
    }
    if (call.getOperator() == SqlStdOperatorTable.SUBSTRING) {
      return substring(call);
    }
    return false;
  }

  /** An aggregate call Lance's SQL engine computes like Calcite (types repaired by the result conversion). */
  static boolean aggregate(AggregateCall call, RelDataType inputRowType) {
    if (call.isApproximate() || !call.getCollation().getFieldCollations().isEmpty() || call.ignoreNulls()
        || !call.rexList.isEmpty() || call.distinctKeys != null || !type(call.getType())) {
      return false;
    }
    for (int argument : call.getArgList()) {
      if (!type(inputRowType.getFieldList().get(argument).getType())) {
        return false;
      }
    }
    switch (call.getAggregation().getKind()) {
      case COUNT:
      case MIN:
      case MAX:
        return true;
      case SUM:
      case AVG:
        return call.getArgList().size() == 1
            && SqlTypeFamily.NUMERIC.contains(inputRowType.getFieldList().get(call.getArgList().get(0)).getType());
      default:
        return false;
    }
  }

  /**
   * What of a pushable subtree Lance's SQL engine would compute inexactly (integer arithmetic and a SUM of integers
   * may wrap, an AVG of decimals is truncated), or null when it computes everything exactly.
   */
  public static String inexactInLance(org.apache.calcite.rel.RelNode subtree) {
    String arithmetic = wrappingArithmetic(subtree);
    if (arithmetic != null) {
      return arithmetic;
    }
    if (subtree instanceof org.apache.calcite.rel.core.Aggregate) {
      org.apache.calcite.rel.core.Aggregate aggregate = (org.apache.calcite.rel.core.Aggregate) subtree;
      for (AggregateCall call : aggregate.getAggCallList()) {
        org.apache.calcite.sql.SqlKind kind = call.getAggregation().getKind();
        if (call.getArgList().size() != 1) {
          continue;
        }
        RelDataType argument = aggregate.getInput().getRowType().getFieldList().get(call.getArgList().get(0))
            .getType();
        if ((kind == org.apache.calcite.sql.SqlKind.SUM || kind == org.apache.calcite.sql.SqlKind.SUM0)
            && SqlTypeFamily.INTEGER.contains(argument)) {
          return "a SUM of integers (Lance's SQL engine wraps on overflow)";
        }
        if (kind == org.apache.calcite.sql.SqlKind.AVG && argument.getSqlTypeName() == SqlTypeName.DECIMAL) {
          return "an AVG of decimals (Lance's SQL engine truncates it to 6 places)";
        }
      }
    }
    for (org.apache.calcite.rel.RelNode input : subtree.getInputs()) {
      String inexact = inexactInLance(input);
      if (inexact != null) {
        return inexact;
      }
    }
    return null;
  }

  /**
   * Integer {@code + - *} and negation in the subtree's own expressions: Lance's SQL engine (DataFusion) wraps them on
   * overflow ({@code 2^62 * 4} is 0 there), where lake must fail (docs/api.md, "Exactness").
   */
  private static String wrappingArithmetic(org.apache.calcite.rel.RelNode rel) {
    List<RexNode> expressions = new java.util.ArrayList<>();
    if (rel instanceof org.apache.calcite.rel.core.Project) {
      expressions.addAll(((org.apache.calcite.rel.core.Project) rel).getProjects());
    } else if (rel instanceof org.apache.calcite.rel.core.Filter) {
      expressions.add(((org.apache.calcite.rel.core.Filter) rel).getCondition());
    } else if (rel instanceof LanceTableScan) {
      ((LanceTableScan) rel).condition().ifPresent(expressions::add);
    }
    for (RexNode expression : expressions) {
      String found = expression.accept(new org.apache.calcite.rex.RexVisitorImpl<String>(true) {
        @Override
        public String visitCall(RexCall call) {
          switch (call.getKind()) {
            case PLUS:
            case MINUS:
            case TIMES:
            case MINUS_PREFIX:
              if (SqlTypeFamily.INTEGER.contains(call.getType())) {
                return "integer arithmetic (Lance's SQL engine wraps on overflow)";
              }
              break;
            default:
              break;
          }
          for (RexNode operand : call.getOperands()) {
            String inner = operand.accept(this);
            if (inner != null) {
              return inner;
            }
          }
          return null;
        }
      });
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static boolean literal(RexLiteral literal) {
    RelDataType type = literal.getType();
    if (type.getSqlTypeName() == SqlTypeName.NULL) {
      return true;
    }
    if (!type(type)) {
      return false;
    }
    if (type.getSqlTypeName() == SqlTypeName.DOUBLE || type.getSqlTypeName() == SqlTypeName.REAL
        || type.getSqlTypeName() == SqlTypeName.FLOAT) {
      Double value = literal.getValueAs(Double.class);
      return value == null || Double.isFinite(value);
    }
    return true;
  }

  /** Numbers, or a date/timestamp plus or minus an interval literal. */
  private static boolean arithmetic(RexCall call) {
    List<RexNode> operands = call.getOperands();
    SqlTypeName result = call.getType().getSqlTypeName();
    if (result == SqlTypeName.DATE || result == SqlTypeName.TIMESTAMP) {
      return operands.size() == 2 && expression(operands.get(0)) && operands.get(1) instanceof RexLiteral
          && SqlTypeFamily.DATETIME_INTERVAL.contains(operands.get(1).getType())
          && ((RexLiteral) operands.get(1)).getValue() != null;
    }
    return SqlTypeFamily.NUMERIC.contains(call.getType()) && all(operands);
  }

  private static boolean search(RexCall call) {
    RexNode value = call.getOperands().get(0);
    RexNode sarg = call.getOperands().get(1);
    if (!expression(value) || !(sarg instanceof RexLiteral)) {
      return false;
    }
    RexLiteral literal = (RexLiteral) sarg;
    return type(literal.getType()) && literal.getValueAs(Sarg.class) != null;
  }

  private static boolean like(RexCall call) {
    List<RexNode> operands = call.getOperands();
    if (call.getOperator() != SqlStdOperatorTable.LIKE && call.getOperator() != SqlStdOperatorTable.NOT_LIKE) {
      return false;
    }
    return expression(operands.get(0)) && LikePatterns.literalPattern(call) != null;
  }

  private static boolean extract(RexCall call) {
    List<RexNode> operands = call.getOperands();
    if (operands.size() != 2 || !(operands.get(0) instanceof RexLiteral)) {
      return false;
    }
    TimeUnitRange unit = ((RexLiteral) operands.get(0)).getValueAs(TimeUnitRange.class);
    SqlTypeName from = operands.get(1).getType().getSqlTypeName();
    return unit != null && EXTRACT_UNITS.contains(unit) && (from == SqlTypeName.DATE || from == SqlTypeName.TIMESTAMP)
        && expression(operands.get(1));
  }

  private static boolean substring(RexCall call) {
    List<RexNode> operands = call.getOperands();
    if (operands.size() < 2 || !expression(operands.get(0))) {
      return false;
    }
    for (int i = 1; i < operands.size(); i++) {
      if (!(operands.get(i) instanceof RexLiteral)) {
        return false;
      }
      Long value = ((RexLiteral) operands.get(i)).getValueAs(Long.class);
      if (value == null || value < (i == 1 ? 1 : 0)) {
        return false;
      }
    }
    return true;
  }

  /** Casts that change nothing but nullability, or widen exactly. */
  private static boolean cast(RexCall call) {
    RexNode operand = call.getOperands().get(0);
    RelDataType from = operand.getType();
    RelDataType to = call.getType();
    if (!expression(operand)) {
      return false;
    }
    SqlTypeName source = from.getSqlTypeName();
    SqlTypeName target = to.getSqlTypeName();
    if (source == target) {
      switch (target) {
        case DECIMAL:
          return to.getScale() >= from.getScale()
              && to.getPrecision() - to.getScale() >= from.getPrecision() - from.getScale();
        case CHAR:
        case VARCHAR:
          return to.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
              || source == SqlTypeName.VARCHAR && from.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED
                  && to.getPrecision() >= from.getPrecision();
        case TIMESTAMP:
          return to.getPrecision() >= from.getPrecision();
        default:
          return true;
      }
    }
    if (SqlTypeFamily.INTEGER.contains(from)) {
      if (SqlTypeFamily.INTEGER.contains(to)) {
        return rank(target) >= rank(source);
      }
      if (target == SqlTypeName.DECIMAL) {
        return to.getPrecision() - to.getScale() >= digits(source);
      }
      return target == SqlTypeName.DOUBLE || target == SqlTypeName.FLOAT;
    }
    if (source == SqlTypeName.DECIMAL) {
      return target == SqlTypeName.DOUBLE || target == SqlTypeName.FLOAT;
    }
    if (source == SqlTypeName.REAL) {
      return target == SqlTypeName.DOUBLE || target == SqlTypeName.FLOAT;
    }
    if (source == SqlTypeName.CHAR && target == SqlTypeName.VARCHAR) {
      return to.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED || to.getPrecision() >= from.getPrecision();
    }
    return source == SqlTypeName.DATE && target == SqlTypeName.TIMESTAMP;
  }

  private static int rank(SqlTypeName integer) {
    switch (integer) {
      case TINYINT: return 1;
      case SMALLINT: return 2;
      case INTEGER: return 3;
      default: return 4;
    }
  }

  private static int digits(SqlTypeName integer) {
    switch (integer) {
      case TINYINT: return 3;
      case SMALLINT: return 5;
      case INTEGER: return 10;
      default: return 19;
    }
  }

  /** The collation and fetch of a sort are pushable when its offset and fetch are literals (or absent). */
  static boolean limit(RexNode offsetOrFetch) {
    return offsetOrFetch == null || offsetOrFetch instanceof RexLiteral
        && ((RexLiteral) offsetOrFetch).getValueAs(Long.class) != null;
  }
}
