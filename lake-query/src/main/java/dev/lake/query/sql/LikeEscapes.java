package dev.lake.query.sql;

import dev.lake.query.model.QueryRejectedException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Refuses a LIKE or SIMILAR TO whose ESCAPE is a string literal of other than one character before the statement is
 * planned: Calcite's planner fails on an empty one with an internal error (docs/api.md, "Errors"). An escape that is
 * not a literal is checked where the pattern is matched ({@link dev.lake.query.guard.LikeMatcher}).
 */
final class LikeEscapes extends SqlBasicVisitor<Void> {
  private LikeEscapes() {}

  static void check(SqlNode statement) {
    statement.accept(new LikeEscapes());
  }

  @Override
  public Void visit(SqlCall call) {
    SqlKind kind = call.getKind();
    if ((kind == SqlKind.LIKE || kind == SqlKind.SIMILAR) && call.operandCount() == 3
        && call.operand(2) instanceof SqlCharStringLiteral escape) {
      String value = escape.getValueAs(String.class);
      if (value.codePointCount(0, value.length()) != 1) {
        throw new QueryRejectedException("invalid ESCAPE '" + Echo.of(value) + "' for "
            + (kind == SqlKind.LIKE ? "LIKE" : "SIMILAR TO") + ": the escape must be exactly one character");
      }
    }
    return super.visit(call);
  }
}
