package dev.lake.query.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Plans a long IN list of constants as a set: {@code e [NOT] IN (v1, ..., vn)} with more than {@value #MAX_EXPANDED}
 * values becomes {@code e [NOT] IN (SELECT v FROM (VALUES (v1), ..., (vn)) AS lake_in_list(v))}. SQL defines the IN
 * predicate over a value list as the IN predicate over the table those values construct, so the meaning is unchanged
 * — types are coerced to the list's common type and compared with {@code e} as for the list, and NULLs in the list
 * or in {@code e} give UNKNOWN exactly as they would (NOT IN of a list holding a NULL is never TRUE). Planned as a
 * list, Calcite turns the values into one search argument that its simplifier, lake's filter rules and its code
 * generator expand into n comparisons, which costs time quadratic in n (a 1,000-value NOT IN over VALUES did not
 * finish planning in 90 s); planned as a table, the values are a hash join's build side, looked up once per row.
 * Lists of up to {@value #MAX_EXPANDED} values stay lists: that many comparisons are cheap and remain eligible for
 * push-down into Lance's scans, whose filters take at most that many operands per AND/OR.
 */
final class InLists extends SqlShuttle {
  /** The longest IN list planned as a list of comparisons; longer ones are planned as a set. */
  static final int MAX_EXPANDED = 32;

  private InLists() {}

  static SqlNode asSets(SqlNode statement) {
    SqlNode out = statement.accept(new InLists());
    return out == null ? statement : out;
  }

  @Override
  public SqlNode visit(SqlCall call) {
    SqlNode visited = super.visit(call);
    if (!(visited instanceof SqlBasicCall in) || in.operandCount() != 2
        || (in.getKind() != SqlKind.IN && in.getKind() != SqlKind.NOT_IN)
        || !(in.operand(1) instanceof SqlNodeList list) || list.size() <= MAX_EXPANDED
        || in.operand(0).getKind() == SqlKind.ROW) {
      return visited;
    }
    String family = null;
    for (SqlNode value : list) {
      String kind = family(value);
      if (kind == null) {
        return visited;
      }
      if (!kind.equals("NULL")) {
        if (family != null && !family.equals(kind)) {
          // a list mixing kinds of constants ('2024-01-01' and DATE '2024-01-02') is coerced value by value to the
          // probe's type; a VALUES would refuse to unify them
          return visited;
        }
        family = kind;
      }
    }
    if (family == null) {
      return visited;
    }
    SqlParserPos pos = list.getParserPosition();
    List<SqlNode> rows = new ArrayList<>(list.size());
    for (SqlNode value : list) {
      rows.add(SqlStdOperatorTable.ROW.createCall(value.getParserPosition(), value));
    }
    SqlNode values = SqlStdOperatorTable.VALUES.createCall(pos, rows);
    SqlNode table = SqlStdOperatorTable.AS.createCall(pos, values, new SqlIdentifier("lake_in_list", pos),
        new SqlIdentifier("v", pos));
    SqlSelect select = new SqlSelect(pos, null, SqlNodeList.of(new SqlIdentifier("v", pos)), table, null, null,
        null, null, null, null, null, null, null);
    in.setOperand(1, select);
    return in;
  }

  /**
   * The kind of constant {@code value} is — {@code number}, {@code NULL}, a literal's type name (CHAR, DATE,
   * TIMESTAMP, BOOLEAN, ...), or the target type of a CAST of a constant — or null when it is not a constant.
   */
  private static String family(SqlNode value) {
    if (value instanceof org.apache.calcite.sql.SqlNumericLiteral) {
      return "number";
    }
    if (value instanceof org.apache.calcite.sql.SqlUnknownLiteral typed) {
      // DATE '...', TIMESTAMP '...' and the like, typed only when validated
      return typed.tag.toUpperCase(java.util.Locale.ROOT);
    }
    if (value instanceof SqlLiteral literal) {
      return literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL ? "NULL"
          : literal.getTypeName().getFamily() == null ? literal.getTypeName().name()
          : literal.getTypeName().getFamily().toString();
    }
    if (!(value instanceof SqlBasicCall call)) {
      return null;
    }
    SqlKind kind = call.getKind();
    if ((kind == SqlKind.MINUS_PREFIX || kind == SqlKind.PLUS_PREFIX) && call.operandCount() == 1) {
      return call.operand(0) instanceof org.apache.calcite.sql.SqlNumericLiteral ? "number" : null;
    }
    if (kind == SqlKind.CAST && call.operandCount() == 2 && family(call.operand(0)) != null) {
      return "cast " + call.operand(1);
    }
    return null;
  }
}
