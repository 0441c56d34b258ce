package dev.lake.query.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

/**
 * Literal auto-parameterization of an un-prepared statement (docs/performance.md, "Literal auto-parameterization"):
 * {@code SELECT * FROM orders WHERE o_orderkey = 12345} becomes the text {@code ... WHERE o_orderkey = ?} and the
 * value 12345, so statements that differ only in such literals share one cached plan.
 *
 * <p>Deliberately narrow, so that the parameterized statement means exactly what the text means. Only a plain
 * single-table {@code SELECT} qualifies: one table name in FROM, a select list of columns (or {@code *}), no DISTINCT,
 * GROUP BY, HAVING, windows or QUALIFY, no {@code ?} anywhere; ORDER BY, LIMIT, OFFSET and FETCH stay in the text as
 * written. Of its WHERE clause only the top-level AND-ed comparisons ({@code = <> < <= > >=}) of a column with an
 * unsigned integer literal ({@code [0-9]+}) or a plain string literal ({@code '...'}, no prefix, no trailing blank)
 * are replaced; every other literal stays in the text (a different value is then a different statement). Whether the
 * values are bound is decided after the parameterized text is validated ({@link #values}): each parameter's type is
 * the column's, and a value is bound only when it is exactly that column type's value — an integer literal for an
 * integer column of a range holding it, a string literal for a VARCHAR column; otherwise the caller plans the text
 * as it is.
 */
public final class LiteralParameters {
  private static final Set<SqlKind> COMPARISONS = Set.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
      SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL);
  private static final Pattern DIGITS = Pattern.compile("[0-9]+");
  /** Longer texts are not looked at (a statement with many literals gains nothing from sharing one plan). */
  private static final int MAX_LENGTH = 4_096;

  /**
   * A statement with some literals replaced.
   *
   * @param text the statement with {@code ?} where each replaced literal was
   * @param literals the replaced literals' values in text order: a {@link BigInteger} or a {@link String}
   */
  public record Parameterized(String text, List<Object> literals) {
    public Parameterized {
      Objects.requireNonNull(text, "text");
      literals = List.copyOf(literals);
    }

    /**
     * The values to bind, when the parameterized text validated with these parameter types ({@code ?} in order)
     * and every literal is exactly a value of its parameter's type; empty when any is not (plan the original text).
     */
    public Optional<List<Object>> values(RelDataType parameterRowType) {
      List<RelDataTypeField> fields = parameterRowType.getFieldList();
      if (fields.size() != literals.size()) {
        return Optional.empty();
      }
      List<Object> values = new ArrayList<>(literals.size());
      for (int i = 0; i < literals.size(); i++) {
        Optional<Object> value = fit(fields.get(i).getType(), literals.get(i));
        if (value.isEmpty()) {
          return Optional.empty();
        }
        values.add(value.get());
      }
      return Optional.of(values);
    }
  }

  private LiteralParameters() {}

  /** {@code sql} with its replaceable literals replaced, or empty when it has none or is not of the narrow shape. */
  public static Optional<Parameterized> of(String sql) {
    if (sql == null || sql.length() > MAX_LENGTH || sql.indexOf('?') >= 0) {
      return Optional.empty();
    }
    SqlNode statement;
    try {
      statement = SqlParser.create(sql, StatementParser.CONFIG).parseQuery();
    } catch (SqlParseException | RuntimeException | StackOverflowError e) {
      return Optional.empty(); // the text is planned as it is, and reports its own error
    }
    SqlSelect select = statement instanceof SqlOrderBy order && order.query instanceof SqlSelect inner ? inner
        : statement instanceof SqlSelect plain ? plain : null;
    if (select == null || !plainScan(select) || select.getWhere() == null) {
      return Optional.empty();
    }
    List<SqlLiteral> found = new ArrayList<>();
    comparisons(select.getWhere(), found);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    return replace(sql, found);
  }

  private static boolean plainScan(SqlSelect select) {
    if (select.isDistinct() || select.getGroup() != null || select.getHaving() != null
        || (select.getWindowList() != null && !select.getWindowList().isEmpty()) || select.getQualify() != null
        || select.hasHints() || !(select.getFrom() instanceof SqlIdentifier)) {
      return false;
    }
    SqlNodeList columns = select.getSelectList();
    for (SqlNode column : columns) {
      if (!(column instanceof SqlIdentifier)) {
        return false;
      }
    }
    return !columns.isEmpty();
  }

  /** Collects the literals of top-level AND-ed comparisons of a column with a replaceable literal. */
  private static void comparisons(SqlNode condition, List<SqlLiteral> found) {
    if (!(condition instanceof SqlBasicCall call)) {
      return;
    }
    if (call.getKind() == SqlKind.AND) {
      for (SqlNode operand : call.getOperandList()) {
        comparisons(operand, found);
      }
      return;
    }
    if (!COMPARISONS.contains(call.getKind()) || call.operandCount() != 2) {
      return;
    }
    SqlNode left = call.operand(0);
    SqlNode right = call.operand(1);
    if (left instanceof SqlIdentifier && replaceable(right)) {
      found.add((SqlLiteral) right);
    } else if (right instanceof SqlIdentifier && replaceable(left)) {
      found.add((SqlLiteral) left);
    }
  }

  private static boolean replaceable(SqlNode node) {
    if (node instanceof SqlNumericLiteral number) {
      return number.isExact() && number.getScale() != null && number.getScale() == 0;
    }
    if (node instanceof SqlCharStringLiteral string) {
      NlsString value = string.getValueAs(NlsString.class);
      return value.getCharsetName() == null && value.getCollation() == null;
    }
    return false;
  }

  /** The text with each literal's exact source span replaced by {@code ?}; empty if a span is not what it says. */
  private static Optional<Parameterized> replace(String sql, List<SqlLiteral> literals) {
    int[] lineStarts = lineStarts(sql);
    List<int[]> spans = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (SqlLiteral literal : literals) {
      SqlParserPos pos = literal.getParserPosition();
      int start = offset(lineStarts, pos.getLineNum(), pos.getColumnNum());
      int end = offset(lineStarts, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
      if (start < 0 || end <= start || end > sql.length()) {
        return Optional.empty();
      }
      String source = sql.substring(start, end);
      Object value = sourceValue(literal, source);
      if (value == null) {
        return Optional.empty();
      }
      spans.add(new int[] {start, end});
      values.add(value);
    }
    spans.sort((a, b) -> Integer.compare(a[0], b[0]));
    // the literals were found in tree order; bind them in text order, the order of the ? that replace them
    List<Object> ordered = new ArrayList<>();
    StringBuilder text = new StringBuilder(sql.length());
    int at = 0;
    for (int[] span : spans) {
      if (span[0] < at) {
        return Optional.empty();
      }
      text.append(sql, at, span[0]).append('?');
      at = span[1];
      for (int i = 0; i < literals.size(); i++) {
        SqlParserPos pos = literals.get(i).getParserPosition();
        if (offset(lineStarts, pos.getLineNum(), pos.getColumnNum()) == span[0]) {
          ordered.add(values.get(i));
        }
      }
    }
    text.append(sql, at, sql.length());
    return ordered.size() == values.size() ? Optional.of(new Parameterized(text.toString(), ordered))
        : Optional.empty();
  }

  /** The literal's value when {@code source} is exactly its spelling (digits; a quoted string), else null. */
  private static Object sourceValue(SqlLiteral literal, String source) {
    if (literal instanceof SqlNumericLiteral number) {
      if (!DIGITS.matcher(source).matches()) {
        return null;
      }
      BigInteger value = new BigInteger(source);
      BigDecimal parsed = number.getValueAs(BigDecimal.class);
      return parsed.compareTo(new BigDecimal(value)) == 0 ? value : null;
    }
    String value = literal.getValueAs(NlsString.class).getValue();
    if (!source.equals("'" + value.replace("'", "''") + "'") || value.endsWith(" ")) {
      return null; // a continued or prefixed literal, or trailing blanks (CHAR padding rules): left as written
    }
    return value;
  }

  private static Optional<Object> fit(RelDataType type, Object literal) {
    SqlTypeName name = type.getSqlTypeName();
    if (literal instanceof BigInteger integer) {
      long bound = switch (name) {
        case TINYINT -> Byte.MAX_VALUE;
        case SMALLINT -> Short.MAX_VALUE;
        case INTEGER -> Integer.MAX_VALUE;
        case BIGINT -> Long.MAX_VALUE;
        default -> -1;
      };
      return bound >= 0 && integer.compareTo(BigInteger.valueOf(bound)) <= 0
          ? Optional.of(integer.longValueExact()) : Optional.empty();
    }
    return name == SqlTypeName.VARCHAR && literal instanceof String ? Optional.of(literal) : Optional.empty();
  }

  private static int[] lineStarts(String sql) {
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 >= sql.length() || sql.charAt(i + 1) != '\n'))) {
        starts.add(i + 1);
      }
    }
    return starts.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int offset(int[] lineStarts, int line, int column) {
    if (line < 1 || line > lineStarts.length || column < 1) {
      return -1;
    }
    return lineStarts[line - 1] + column - 1;
  }
}
