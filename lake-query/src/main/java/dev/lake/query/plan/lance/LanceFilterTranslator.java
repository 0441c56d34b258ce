package dev.lake.query.plan.lance;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Translates a Calcite condition over a scan's columns into a Lance filter string (DataFusion SQL as Lance's
 * planner accepts it), or says it cannot.
 *
 * <p>Translated: comparisons, AND/OR/NOT, IS [NOT] NULL, IS [NOT] TRUE/FALSE, LIKE/NOT LIKE, widening casts of
 * columns, and literals of every type Lance can compare. Lance's dialect differs from SQL in ways this class
 * handles: identifiers are back-quoted (double quotes make strings); a literal compared with a column is converted
 * to the column's type and the filter fails when it does not fit, so exact literals that do not fit an integer
 * column, and floating literals against exact columns, widen the column instead; decimals are written as
 * {@code CAST('1.5' AS DECIMAL(2,1))}; LIKE escapes with backslash. Anything else (TIME values, zoned timestamps
 * outside UTC, arithmetic, functions, {@code SEARCH} not expanded first) is left to Calcite. A translation is
 * all-or-nothing per condition; callers split conjunctions first.
 *
 * <p>A {@code ?} parameter (a statement planned before its values are bound: dev.lake.query.plan.ParameterizedScan)
 * is translated only where it is compared with a column of exactly its type, as the placeholder {@code ?0} (Calcite's
 * name of the first): such a filter is never sent to Lance — each execution binds its values into the condition and
 * translates it again.
 */
public final class LanceFilterTranslator {
  private static final Set<String> UTC_ZONES = Set.of("UTC", "Etc/UTC", "+00:00", "Z");

  /**
   * The largest AND/OR and the deepest nesting handed to Lance. Lance's filter parser turns {@code a OR b OR ...} into
   * a left-deep tree of binary nodes and walks it recursively on a native thread: a 463-value IN list (expanded to
   * ORs) crashed the JVM with SIGSEGV (found by lake's fuzzer). Longer or deeper conditions are left to lake.
   */
  static final int MAX_JUNCTION = 32;
  static final int MAX_DEPTH = 16;
  private final List<Field> columns;
  private int depth;

  private LanceFilterTranslator(List<Field> columns) {
    this.columns = columns;
  }

  /**
   * The Lance filter for {@code condition}, or empty when any part of it cannot be translated.
   *
   * @param columns the stored field behind each input column of the condition
   */
  public static Optional<String> translate(RexNode condition, List<Field> columns) {
    return Optional.ofNullable(new LanceFilterTranslator(columns).condition(condition));
  }

  private String condition(RexNode node) {
    depth++;
    try {
      return depth > MAX_DEPTH ? null : translated(node);
    } finally {
      depth--;
    }
  }

  private String translated(RexNode node) {
    if (node instanceof RexLiteral) {
      RexLiteral literal = (RexLiteral) node;
      Boolean value = literal.isNull() ? null : literal.getValueAs(Boolean.class);
      return value == null ? null : value.toString().toUpperCase(java.util.Locale.ROOT);
    }
    if (node instanceof RexInputRef) {
      Field field = column((RexInputRef) node);
      return field != null && field.getType().getTypeID() == ArrowType.ArrowTypeID.Bool ? quote(field.getName()) : null;
    }
    if (!(node instanceof RexCall)) {
      return null;
    }
    RexCall call = (RexCall) node;
    switch (call.getKind()) {
      case AND:
      case OR:
        return junction(call, call.getKind() == SqlKind.AND ? " AND " : " OR ");
      case NOT: {
        String inner = condition(call.getOperands().get(0));
        return inner == null ? null : "(NOT " + inner + ")";
      }
      case IS_NULL:
      case IS_NOT_NULL: {
        String value = nullTestOperand(call.getOperands().get(0));
        return value == null ? null
            : "(" + value + (call.getKind() == SqlKind.IS_NULL ? " IS NULL)" : " IS NOT NULL)");
      }
      case IS_TRUE:
      case IS_NOT_TRUE:
      case IS_FALSE:
      case IS_NOT_FALSE: {
        String inner = condition(call.getOperands().get(0));
        return inner == null ? null : "(" + inner + " " + call.getOperator().getName() + ")";
      }
      case EQUALS:
      case NOT_EQUALS:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        return comparison(call);
      case LIKE:
        return like(call);
      default:
        return null;
    }
  }

  private String junction(RexCall call, String separator) {
    if (call.getOperands().size() > MAX_JUNCTION) {
      return null; // Lance parses an n-ary OR/AND into n nested binary nodes: a long one overflows a native stack
    }
    List<String> parts = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      String part = condition(operand);
      if (part == null) {
        return null;
      }
      parts.add(part);
    }
    return "(" + String.join(separator, parts) + ")";
  }

  private String nullTestOperand(RexNode node) {
    if (node instanceof RexInputRef) {
      Field field = column((RexInputRef) node);
      return field == null ? null : quote(field.getName());
    }
    Operand operand = operand(node);
    return operand == null || operand.literal != null || operand.parameter ? null : operand.text;
  }

  private String comparison(RexCall call) {
    Operand left = operand(call.getOperands().get(0));
    Operand right = operand(call.getOperands().get(1));
    if (left == null || right == null || (left.literal != null && right.literal != null)) {
      return null;
    }
    if (left.parameter || right.parameter) {
      return parameterComparison(call, left, right);
    }
    Family family = left.family;
    if (family != right.family || family == Family.OTHER) {
      return null;
    }
    String leftText = left.text;
    String rightText = right.text;
    if (family == Family.NUMERIC) {
      String[] pair = numericPair(left, right);
      if (pair == null) {
        return null;
      }
      leftText = pair[0];
      rightText = pair[1];
    } else if (family == Family.TIMESTAMP && !fractionFits(left, right)) {
      return null;
    }
    return "(" + leftText + " " + call.getOperator().getName() + " " + rightText + ")";
  }

  /** A column compared with a parameter of exactly its type (its placeholder: the filter of a template only). */
  private static String parameterComparison(RexCall call, Operand left, Operand right) {
    Operand parameter = left.parameter ? left : right;
    Operand column = left.parameter ? right : left;
    if (column.parameter || column.literal != null || column.family == Family.OTHER
        || parameter.family != column.family || !sameType(parameter.type, column.type)) {
      return null;
    }
    return "(" + left.text + " " + call.getOperator().getName() + " " + right.text + ")";
  }

  private static boolean sameType(RelDataType a, RelDataType b) {
    if (a.getSqlTypeName() != b.getSqlTypeName()) {
      return false;
    }
    return a.getSqlTypeName() != SqlTypeName.DECIMAL
        || (a.getPrecision() == b.getPrecision() && a.getScale() == b.getScale());
  }

  /** Lance converts a literal to its column's type and fails when it does not fit: widen the column instead. */
  private static String[] numericPair(Operand left, Operand right) {
    if (left.literal == null && right.literal == null) {
      return new String[] {left.text, right.text};
    }
    boolean literalLeft = left.literal != null;
    Operand literal = literalLeft ? left : right;
    Operand other = literalLeft ? right : left;
    String literalText;
    String otherText = other.text;
    SqlTypeName otherType = other.type.getSqlTypeName();
    BigDecimal value = literal.literal.getValueAs(BigDecimal.class);
    if (value == null) {
      return null;
    }
    boolean approximate = LanceLiterals.isApproximate(literal.type.getSqlTypeName());
    if (approximate) {
      double d = value.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return null;
      }
      literalText = Double.toString(d);
      if (!LanceLiterals.isApproximate(otherType) || otherType == SqlTypeName.REAL) {
        otherText = "CAST(" + other.text + " AS DOUBLE)";
      }
    } else if (LanceLiterals.isApproximate(otherType)) {
      literalText = Double.toString(value.doubleValue());
      if (otherType == SqlTypeName.REAL) {
        otherText = "CAST(" + other.text + " AS DOUBLE)";
      }
    } else if (LanceLiterals.isInteger(value) && (otherType != SqlTypeName.DECIMAL)) {
      long exact = value.longValueExact();
      literalText = Long.toString(exact);
      if (exact == Long.MIN_VALUE) {
        return null;
      }
      if (!LanceLiterals.fitsInteger(exact, otherType)) {
        otherText = "CAST(" + other.text + " AS BIGINT)";
      }
    } else {
      literalText = LanceLiterals.decimalLiteral(value);
      if (literalText == null) {
        return null;
      }
    }
    return literalLeft ? new String[] {literalText, otherText} : new String[] {otherText, literalText};
  }

  private String like(RexCall call) {
    boolean negated = call.getOperator() == SqlStdOperatorTable.NOT_LIKE;
    if (call.getOperator() != SqlStdOperatorTable.LIKE && !negated) {
      return null;
    }
    List<RexNode> operands = call.getOperands();
    Operand value = operand(operands.get(0));
    if (value == null || value.family != Family.CHARACTER || value.literal != null || value.parameter) {
      return null;
    }
    String lancePattern = LikePatterns.literalPattern(call);
    if (lancePattern == null) {
      return null;
    }
    String like = negated ? " NOT LIKE " : " LIKE ";
    return "(" + value.text + like + LanceLiterals.stringLiteral(lancePattern) + ")";
  }

  /** A value operand: a column, a widening cast of a column, or a literal. */
  private Operand operand(RexNode node) {
    if (node instanceof RexInputRef) {
      Field field = column((RexInputRef) node);
      if (field == null || !comparable(field.getType())) {
        return null;
      }
      return new Operand(quote(field.getName()), node.getType(), null, family(node.getType()), unitDigits(field));
    }
    if (node instanceof RexDynamicParam) {
      return new Operand("?" + ((RexDynamicParam) node).getIndex(), node.getType(), null, family(node.getType()),
          0, true);
    }
    if (node instanceof RexLiteral) {
      RexLiteral literal = (RexLiteral) node;
      String text = LanceLiterals.literal(literal);
      return text == null ? null : new Operand(text, literal.getType(), literal, family(literal.getType()),
          LanceLiterals.fractionDigits(literal));
    }
    if (node.getKind() == SqlKind.CAST) {
      return cast((RexCall) node);
    }
    return null;
  }

  private Operand cast(RexCall call) {
    RexNode input = call.getOperands().get(0);
    if (input instanceof RexLiteral) {
      return castLiteral((RexLiteral) input, call.getType());
    }
    if (!(input instanceof RexInputRef)) {
      return null;
    }
    Operand column = operand(input);
    RelDataType target = call.getType();
    if (column == null) {
      return null;
    }
    Family targetFamily = family(target);
    if (column.family == Family.NUMERIC && targetFamily == Family.NUMERIC) {
      String type = LanceLiterals.lanceNumericType(target);
      return type == null ? null
          : new Operand("CAST(" + column.text + " AS " + type + ")", target, null, Family.NUMERIC, 0);
    }
    if (column.family == Family.CHARACTER && target.getSqlTypeName() == SqlTypeName.VARCHAR
        && target.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED) {
      return new Operand(column.text, target, null, Family.CHARACTER, 0);
    }
    if (column.family == Family.DATE && targetFamily == Family.TIMESTAMP
        && target.getSqlTypeName() == SqlTypeName.TIMESTAMP) {
      return new Operand("CAST(" + column.text + " AS TIMESTAMP)", target, null, Family.TIMESTAMP, 9);
    }
    return null;
  }

  /**
   * A cast of a literal that does not change its value (bound parameters arrive so, typed exactly like the
   * parameter): the literal itself. Other casts of literals are left to Calcite.
   */
  private static Operand castLiteral(RexLiteral literal, RelDataType target) {
    SqlTypeName from = literal.getType().getSqlTypeName();
    SqlTypeName to = target.getSqlTypeName();
    Family family = family(literal.getType());
    if (family == Family.OTHER || family != family(target)) {
      return null;
    }
    boolean keepsValue;
    if (family == Family.CHARACTER) {
      String value = literal.getValueAs(String.class);
      keepsValue = to == SqlTypeName.VARCHAR && value != null
          && (target.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED || target.getPrecision() >= value.length());
    } else if (from == SqlTypeName.DECIMAL || to == SqlTypeName.DECIMAL) {
      keepsValue = from == to && literal.getType().getScale() == target.getScale();
    } else {
      keepsValue = from == to;
    }
    if (!keepsValue) {
      return null;
    }
    String text = LanceLiterals.literal(literal);
    return text == null ? null : new Operand(text, target, literal, family, LanceLiterals.fractionDigits(literal));
  }

  private Field column(RexInputRef ref) {
    int index = ref.getIndex();
    if (index < 0 || index >= columns.size()) {
      return null;
    }
    Field field = columns.get(index);
    return field.getName().indexOf('`') >= 0 ? null : field;
  }

  /** Types whose values Lance's filters compare like SQL does. */
  private static boolean comparable(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
      case FloatingPoint:
      case Decimal:
      case Utf8:
      case LargeUtf8:
      case Bool:
      case Date:
      case Binary:
      case LargeBinary:
        return true;
      case Timestamp: {
        String zone = ((ArrowType.Timestamp) type).getTimezone();
        return zone == null || UTC_ZONES.contains(zone);
      }
      default:
        return false;
    }
  }

  private static String quote(String name) {
    return "`" + name + "`";
  }

  /** A timestamp literal must not carry more fractional digits than the column's unit holds. */
  private static boolean fractionFits(Operand left, Operand right) {
    Operand literal = left.literal != null ? left : right.literal != null ? right : null;
    if (literal == null) {
      return true;
    }
    Operand column = literal == left ? right : left;
    return literal.digits <= column.digits;
  }

  private static int unitDigits(Field field) {
    if (field.getType() instanceof ArrowType.Timestamp) {
      TimeUnit unit = ((ArrowType.Timestamp) field.getType()).getUnit();
      switch (unit) {
        case SECOND: return 0;
        case MILLISECOND: return 3;
        case MICROSECOND: return 6;
        default: return 9;
      }
    }
    return 0;
  }

  private static Family family(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case DECIMAL:
      case REAL:
      case FLOAT:
      case DOUBLE:
        return Family.NUMERIC;
      case CHAR:
      case VARCHAR:
        return Family.CHARACTER;
      case BINARY:
      case VARBINARY:
        return Family.BINARY;
      case BOOLEAN:
        return Family.BOOLEAN;
      case DATE:
        return Family.DATE;
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return Family.TIMESTAMP;
      default:
        return Family.OTHER;
    }
  }

  private enum Family { NUMERIC, CHARACTER, BINARY, BOOLEAN, DATE, TIMESTAMP, OTHER }

  /**
   * One side of a comparison.
   *
   * @param literal set when the operand is a literal (its text is then a placeholder for numbers)
   * @param digits fractional-second digits: the column's unit, or the literal's
   * @param parameter set when the operand is a {@code ?} (its text is then a placeholder)
   */
  private record Operand(String text, RelDataType type, RexLiteral literal, Family family, int digits,
      boolean parameter) {
    Operand(String text, RelDataType type, RexLiteral literal, Family family, int digits) {
      this(text, type, literal, family, digits, false);
    }
  }
}
