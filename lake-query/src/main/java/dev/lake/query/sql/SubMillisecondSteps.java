package dev.lake.query.sql;

import dev.lake.query.model.QueryRejectedException;
import java.math.BigDecimal;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Refuses, before the statement is planned, a step in time lake cannot add exactly yet: Calcite holds day-time
 * intervals in whole milliseconds, so {@code TIMESTAMPADD(MICROSECOND, 1, ts)} added nothing and
 * {@code ts + INTERVAL '0.000001' SECOND} lost its microsecond (docs/api.md, "Exactness"). A TIMESTAMPADD by
 * microseconds or nanoseconds passes when its count is a literal whole number of milliseconds; an interval literal
 * passes when its digits below a millisecond are zeros.
 */
final class SubMillisecondSteps extends SqlBasicVisitor<Void> {
  private SubMillisecondSteps() {}

  static void check(SqlNode statement) {
    statement.accept(new SubMillisecondSteps());
  }

  @Override
  public Void visit(SqlCall call) {
    if (call.getKind() == SqlKind.TIMESTAMP_ADD && call.operandCount() == 3) {
      String unit = call.operand(0).toString().toUpperCase(Locale.ROOT);
      long perMillisecond = unit.contains("NANOSECOND") ? 1_000_000 : unit.contains("MICROSECOND") ? 1_000 : 1;
      if (perMillisecond > 1 && !wholeMilliseconds(call.operand(1), perMillisecond)) {
        throw new QueryRejectedException("TIMESTAMPADD by " + call.operand(1) + " " + unit + " cannot be computed"
            + " exactly yet: lake adds time in whole milliseconds; use a count that is a literal multiple of "
            + perMillisecond);
      }
    }
    return super.visit(call);
  }

  @Override
  public Void visit(SqlLiteral literal) {
    if (literal instanceof SqlIntervalLiteral interval
        && interval.getValue() instanceof SqlIntervalLiteral.IntervalValue value) {
      String text = value.getIntervalLiteral();
      int point = text.lastIndexOf('.');
      if (point >= 0 && text.substring(point + 1).length() > 3
          && text.substring(point + 4).chars().anyMatch(c -> c != '0')) {
        throw new QueryRejectedException("INTERVAL '" + Echo.of(text) + "' has digits below a millisecond, which lake"
            + " cannot add exactly yet (intervals are held in milliseconds); round it to milliseconds");
      }
    }
    return super.visit(literal);
  }

  private static boolean wholeMilliseconds(SqlNode count, long perMillisecond) {
    if (!(count instanceof SqlNumericLiteral number) || !number.isExact()) {
      return false;
    }
    BigDecimal value = number.getValueAs(BigDecimal.class);
    return value.remainder(BigDecimal.valueOf(perMillisecond)).signum() == 0;
  }
}
