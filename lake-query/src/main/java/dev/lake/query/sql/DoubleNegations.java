package dev.lake.query.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Removes pairs of {@code NOT}: {@code NOT NOT x} is {@code x} in SQL's three-valued logic (NOT of NULL is NULL), so
 * the statement's meaning is unchanged, and a chain of negations (up to {@code query.max-expression-depth} of them)
 * reaches the planner as at most one {@code NOT} instead of a deep tree every rule recurses through.
 */
final class DoubleNegations extends SqlShuttle {
  private DoubleNegations() {}

  static SqlNode remove(SqlNode statement) {
    SqlNode out = statement.accept(new DoubleNegations());
    return out == null ? statement : out;
  }

  @Override
  public SqlNode visit(SqlCall call) {
    SqlNode node = call;
    while (isNot(node) && isNot(((SqlCall) node).operand(0))) {
      node = ((SqlCall) ((SqlCall) node).operand(0)).operand(0);
    }
    if (!(node instanceof SqlCall c)) {
      return node == null ? null : node.accept(this);
    }
    return super.visit(c);
  }

  private static boolean isNot(SqlNode node) {
    return node instanceof SqlBasicCall c && c.getKind() == SqlKind.NOT && c.operandCount() == 1;
  }
}
