package dev.lake.query.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Window sums of integers that fail instead of wrapping (docs/api.md, "Exactness"): Calcite's window runtime adds
 * {@code long}s unchecked, so {@code SUM(x) OVER (...)} of an integer {@code x} is rewritten, before windows are
 * formed, into {@code CAST(SUM(CAST(x AS DECIMAL(19, 0))) OVER (...) AS <the sum's type>)}: the sum is exact in
 * decimals, and the cast back refuses a value beyond the type (INVALID_ARGUMENT), like the grouped SUM does.
 */
final class CheckedWindowSums extends RexShuttle {
  private final RexBuilder rexBuilder;

  private CheckedWindowSums(RexBuilder rexBuilder) {
    this.rexBuilder = rexBuilder;
  }

  /** {@code rel} with every integer window sum checked; {@code rel} itself when it has none. */
  static RelNode rewrite(RelNode rel) {
    CheckedWindowSums sums = new CheckedWindowSums(rel.getCluster().getRexBuilder());
    return rel.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        return super.visit(other).accept(sums);
      }
    });
  }

  @Override
  public RexNode visitOver(RexOver over) {
    RexOver visited = (RexOver) super.visitOver(over);
    SqlKind kind = visited.getAggOperator().getKind();
    if ((kind != SqlKind.SUM && kind != SqlKind.SUM0) || !SqlTypeFamily.INTEGER.contains(visited.getType())
        || visited.getOperands().size() != 1) {
      return visited;
    }
    RexNode operand = visited.getOperands().get(0);
    RelDataType decimal = rexBuilder.getTypeFactory().createTypeWithNullability(
        rexBuilder.getTypeFactory().createSqlType(SqlTypeName.DECIMAL, 19, 0), operand.getType().isNullable());
    RelDataType sumType = rexBuilder.getTypeFactory().createTypeWithNullability(
        rexBuilder.getTypeFactory().createSqlType(SqlTypeName.DECIMAL, 38, 0), visited.getType().isNullable());
    List<RexNode> operands = new ArrayList<>();
    operands.add(rexBuilder.makeCast(decimal, operand));
    RexWindow window = visited.getWindow();
    RexNode exact = rexBuilder.makeOver(sumType, visited.getAggOperator(), operands, window.partitionKeys,
        window.orderKeys, window.getLowerBound(), window.getUpperBound(), window.getExclude(), window.isRows(),
        true, false, visited.isDistinct(), visited.ignoreNulls());
    return rexBuilder.makeCast(visited.getType(), exact, true, false);
  }
}
