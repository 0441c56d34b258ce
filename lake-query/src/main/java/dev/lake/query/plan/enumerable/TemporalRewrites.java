package dev.lake.query.plan.enumerable;

import dev.lake.query.model.QueryRejectedException;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * The exact rewrite of expressions over TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME ZONE and TIME(p) with p > 3, which
 * Calcite's runtime holds as longs in the unit of their precision (microseconds up to 6, nanoseconds up to 9; see
 * {@link ExactRuntime}): literals, values of different precisions meeting in one unit, {@code +/-} intervals,
 * EXTRACT, FLOOR and CAST become {@link TemporalFunctions}' temporal calls; what cannot be computed exactly is refused.
 * A CAST of a TIME or TIMESTAMP of any precision to text is rewritten too.
 */
final class TemporalRewrites {
  private static final long MILLIS = 1_000L;
  private static final long MICROS = 1_000_000L;
  private static final long NANOS = 1_000_000_000L;

  /** Calls whose meaning does not depend on the unit temporal operands are held in (once aligned). */
  private static final Set<SqlKind> UNIT_FREE = EnumSet.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
      SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.IS_DISTINCT_FROM,
      SqlKind.IS_NOT_DISTINCT_FROM, SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.CASE, SqlKind.COALESCE,
      SqlKind.NULLIF, SqlKind.GREATEST, SqlKind.LEAST, SqlKind.REINTERPRET);

  private static final SqlOperator RESCALE = function("rescale");
  private static final SqlOperator RESCALE_TO_INT = function("rescaleToInt");
  private static final SqlOperator TO_DATE = function("toDate");
  private static final SqlOperator FROM_DATE = function("fromDate");
  private static final SqlOperator TIME_OF_DAY = function("timeOfDay");
  private static final SqlOperator TIME_OF_DAY_TO_INT = function("timeOfDayToInt");
  private static final SqlOperator PLUS_MILLIS = function("plusMillis");
  private static final SqlOperator TIME_PLUS_MILLIS = function("timePlusMillis");
  private static final SqlOperator PLUS_MONTHS = function("plusMonths");
  private static final SqlOperator DATE_PLUS_MONTHS = function("datePlusMonths");
  private static final SqlOperator DATE_PLUS_MILLIS = function("datePlusMillis");
  private static final SqlOperator MONTHS_TIMES = function("monthsTimes");
  private static final SqlOperator MILLIS_TIMES = function("millisTimes");
  private static final SqlOperator SECONDS_OF_MINUTE = function("secondsOfMinute");
  private static final SqlOperator TIMESTAMP_STRING = function("timestampString");
  private static final SqlOperator TIME_STRING = function("timeString");
  private static final SqlOperator PARSE_TIMESTAMP = function("parseTimestamp");
  private static final SqlOperator PARSE_TIME = function("parseTime");

  /** The operator calling {@code TemporalFunctions.<method>}. */
  private static SqlOperator function(String method) {
    return ExactOperators.function(TemporalFunctions.class, method);
  }

  private final RexBuilder rexBuilder;
  private final RelDataTypeFactory typeFactory;

  TemporalRewrites(RexBuilder rexBuilder) {
    this.rexBuilder = rexBuilder;
    this.typeFactory = rexBuilder.getTypeFactory();
  }

  /** Units per second a temporal type is held in at run time, or 0 for other types. */
  static long unitsPerSecond(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
        int precision = type.getPrecision();
        return precision <= 3 ? MILLIS : precision <= 6 ? MICROS : NANOS;
      }
      default:
        return 0;
    }
  }

  /** Whether Calcite's runtime holds values of this type in a unit finer than milliseconds. */
  static boolean fine(RelDataType type) {
    return unitsPerSecond(type) > MILLIS;
  }

  /**
   * Whether a CAST from {@code from} to {@code to} writes a TIME or TIMESTAMP of any precision as text, with the
   * fractional digits of its precision (Calcite's own text drops them).
   */
  static boolean toText(RelDataType from, RelDataType to) {
    return unitsPerSecond(from) > 0 && SqlTypeFamily.CHARACTER.contains(to);
  }

  static boolean fineIn(List<RexNode> nodes) {
    return nodes.stream().anyMatch(n -> fine(n.getType()));
  }

  /** A fine temporal literal as its value in its runtime unit, reinterpreted as the literal's type. */
  RexNode literal(RexLiteral literal) {
    RelDataType bigint = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT),
        literal.getType().isNullable());
    RexNode units = literal.isNull() ? rexBuilder.makeNullLiteral(bigint)
        : rexBuilder.makeLiteral(units(literal), bigint);
    return rexBuilder.makeCall(literal.getType(), SqlStdOperatorTable.REINTERPRET, List.of(units));
  }

  /** A fine temporal literal's value in its runtime unit. */
  static BigDecimal units(RexLiteral literal) {
    if (literal.isNull()) {
      return null;
    }
    long ups = unitsPerSecond(literal.getType());
    long nanos;
    if (literal.getType().getSqlTypeName() == SqlTypeName.TIME) {
      nanos = LocalTime.parse(literal.getValueAs(TimeString.class).toString()).toNanoOfDay();
      return BigDecimal.valueOf(nanos / (NANOS / ups));
    }
    LocalDateTime at = LocalDateTime.parse(literal.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
    long seconds = at.toEpochSecond(ZoneOffset.UTC);
    return BigDecimal.valueOf(seconds).multiply(BigDecimal.valueOf(ups))
        .add(BigDecimal.valueOf(at.getNano() / (NANOS / ups)));
  }

  /**
   * A call the rewrite of expressions handles here: a unit-free call (aligned), interval arithmetic, EXTRACT, FLOOR,
   * or a value Calcite computes in milliseconds; null when none of those (the caller refuses it).
   */
  RexNode call(RexCall call, boolean fineOperands) {
    SqlKind kind = call.getKind();
    if (UNIT_FREE.contains(kind)) {
      return aligned(call);
    }
    if ((kind == SqlKind.PLUS || kind == SqlKind.MINUS) && fine(call.getType())) {
      return intervalArithmetic(call);
    }
    if (kind == SqlKind.EXTRACT) {
      return extract(call);
    }
    if (kind == SqlKind.FLOOR && call.getOperands().size() == 2) {
      return floor(call);
    }
    if (!fineOperands) {
      // A value computed in milliseconds (CURRENT_TIMESTAMP(6), ...), then held in the finer unit.
      RelDataType millis = withPrecision(call.getType(), 3);
      return rescaled(rexBuilder.makeCall(millis, call.getOperator(), call.getOperands()), call.getType());
    }
    return null;
  }

  /** A unit-free call with its temporal operands in one unit: the result's, or the finest one compared. */
  private RexNode aligned(RexCall call) {
    RelDataType target = null;
    if (SqlTypeFamily.DATETIME.contains(call.getType())) {
      target = call.getType();
    } else {
      for (RexNode operand : call.getOperands()) {
        if (unitsPerSecond(operand.getType()) > 0
            && (target == null || unitsPerSecond(operand.getType()) > unitsPerSecond(target))) {
          target = operand.getType();
        }
      }
    }
    if (target == null || call.getKind() == SqlKind.REINTERPRET) {
      return call;
    }
    List<RexNode> operands = new ArrayList<>();
    boolean changed = false;
    for (RexNode operand : call.getOperands()) {
      if (unitsPerSecond(operand.getType()) > 0 && unitsPerSecond(operand.getType()) != unitsPerSecond(target)
          && sameFamily(operand.getType(), target)) {
        operands.add(rescaled(operand, typeFactory.createTypeWithNullability(target, operand.getType().isNullable())));
        changed = true;
      } else {
        operands.add(operand);
      }
    }
    return changed ? call.clone(call.getType(), operands) : call;
  }

  private static boolean sameFamily(RelDataType a, RelDataType b) {
    return (a.getSqlTypeName() == SqlTypeName.TIME) == (b.getSqlTypeName() == SqlTypeName.TIME);
  }

  /** {@code value} (a temporal expression) held in the unit of {@code target} (same family). */
  private RexNode rescaled(RexNode value, RelDataType target) {
    long from = unitsPerSecond(value.getType());
    long to = unitsPerSecond(target);
    long keep = keep(target);
    if (from == to && keep == 1) {
      return value.getType().equals(target) ? value
          : rexBuilder.makeCall(target, SqlStdOperatorTable.REINTERPRET, List.of(value));
    }
    boolean toInt = target.getSqlTypeName() == SqlTypeName.TIME && to == MILLIS;
    return rexBuilder.makeCall(target, toInt ? RESCALE_TO_INT : RESCALE,
        List.of(value, bigint(from), bigint(to), bigint(keep)));
  }

  /** The granularity a type's precision keeps in its runtime unit (1 unless the precision is below the unit's). */
  private static long keep(RelDataType type) {
    int digits = Long.toString(unitsPerSecond(type)).length() - 1;
    long keep = 1;
    for (int i = Math.max(0, type.getPrecision()); i < digits; i++) {
      keep *= 10;
    }
    return keep;
  }

  private RelDataType withPrecision(RelDataType type, int precision) {
    return typeFactory.createTypeWithNullability(typeFactory.createSqlType(type.getSqlTypeName(), precision),
        type.isNullable());
  }

  private RexNode bigint(long value) {
    return rexBuilder.makeLiteral(BigDecimal.valueOf(value), typeFactory.createSqlType(SqlTypeName.BIGINT));
  }

  private RexNode integer(int value) {
    return rexBuilder.makeLiteral(BigDecimal.valueOf(value), typeFactory.createSqlType(SqlTypeName.INTEGER));
  }

  /**
   * Whether {@code call} is a DATE or TIMESTAMP plus or minus an interval, or an interval times an integer, which
   * Calcite computes in ints and longs that wrap: {@link #checkedDatetime} computes it or fails (docs/api.md,
   * "Errors").
   */
  static boolean datetimeArithmetic(RexCall call) {
    SqlTypeName type = call.getType().getSqlTypeName();
    List<RexNode> operands = call.getOperands();
    if (call.getKind() == SqlKind.TIMES) {
      return SqlTypeFamily.DATETIME_INTERVAL.contains(call.getType()) && operands.stream().allMatch(o ->
          SqlTypeFamily.DATETIME_INTERVAL.contains(o.getType()) || SqlTypeName.INT_TYPES.contains(
              o.getType().getSqlTypeName()));
    }
    return (call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.MINUS) && operands.size() == 2
        && (type == SqlTypeName.DATE || type == SqlTypeName.TIMESTAMP
            || type == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
        && operands.stream().anyMatch(o -> SqlTypeFamily.DATETIME_INTERVAL.contains(o.getType()));
  }

  /**
   * Whether Calcite may fold a {@link #datetimeArithmetic} call of constants while planning: a DATE or TIMESTAMP
   * literal plus or minus an interval literal whose result is in years 1 to 9999, which Calcite's literals hold
   * (beyond, it writes the year's last four digits). Anything else is left to {@link #checkedDatetime} at run time.
   */
  static boolean foldable(RexCall call) {
    List<RexNode> operands = call.getOperands();
    if (call.getKind() == SqlKind.TIMES || !(operands.get(0) instanceof RexLiteral)
        || !(operands.get(1) instanceof RexLiteral) || fine(call.getType())) {
      return false;
    }
    int at = SqlTypeFamily.DATETIME_INTERVAL.contains(operands.get(0).getType()) ? 1 : 0;
    RexLiteral temporal = (RexLiteral) operands.get(at);
    RexLiteral interval = (RexLiteral) operands.get(1 - at);
    BigDecimal amount = interval.getValueAs(BigDecimal.class);
    if (temporal.isNull() || amount == null || !SqlTypeFamily.DATETIME.contains(temporal.getType())) {
      return false;
    }
    long signed = (call.getKind() == SqlKind.MINUS ? amount.negate() : amount).longValue();
    try {
      LocalDateTime start = temporal.getType().getSqlTypeName() == SqlTypeName.DATE
          ? java.time.LocalDate.ofEpochDay(temporal.getValueAs(Integer.class)).atStartOfDay()
          : LocalDateTime.ofEpochSecond(Math.floorDiv(temporal.getValueAs(Long.class), MILLIS), 0, ZoneOffset.UTC);
      LocalDateTime end = SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(interval.getType()) ? start.plusMonths(signed)
          : start.plusSeconds(signed / MILLIS + Long.signum(signed));
      return end.getYear() >= 1 && end.getYear() <= 9999 && start.getYear() >= 1 && start.getYear() <= 9999;
    } catch (java.time.DateTimeException | ArithmeticException e) {
      return false;
    }
  }

  /** A call {@link #datetimeArithmetic} accepts (and that is not over a fine type), as a checked function. */
  RexNode checkedDatetime(RexCall call) {
    if (call.getKind() == SqlKind.TIMES) {
      SqlOperator times = SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(call.getType()) ? MONTHS_TIMES : MILLIS_TIMES;
      return rexBuilder.makeCall(call.getType(), times, call.getOperands());
    }
    if (call.getType().getSqlTypeName() != SqlTypeName.DATE) {
      return intervalArithmetic(call);
    }
    List<RexNode> operands = call.getOperands();
    int dateAt = operands.get(0).getType().getSqlTypeName() == SqlTypeName.DATE ? 0 : 1;
    RexNode interval = operands.get(1 - dateAt);
    if (call.getKind() == SqlKind.MINUS) {
      interval = rexBuilder.makeCall(interval.getType(), SqlStdOperatorTable.CHECKED_UNARY_MINUS, List.of(interval));
    }
    SqlOperator plus = SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(interval.getType()) ? DATE_PLUS_MONTHS
        : DATE_PLUS_MILLIS;
    return rexBuilder.makeCall(call.getType(), plus, List.of(operands.get(dateAt), interval));
  }

  /** A timestamp or time plus or minus an interval. */
  private RexNode intervalArithmetic(RexCall call) {
    List<RexNode> operands = call.getOperands();
    int temporalAt = SqlTypeFamily.DATETIME.contains(operands.get(0).getType()) ? 0 : 1;
    RexNode temporal = rescaled(operands.get(temporalAt), call.getType());
    RexNode interval = operands.get(1 - temporalAt);
    if (operands.size() != 2 || !SqlTypeFamily.DATETIME_INTERVAL.contains(interval.getType())
        || call.getKind() == SqlKind.MINUS && temporalAt == 1) {
      throw new QueryRejectedException(ExactExpressions.describe(call) + " of "
          + operands.get(0).getType().getFullTypeString()
          + " and " + operands.get(1).getType().getFullTypeString() + " cannot be computed exactly yet");
    }
    if (call.getKind() == SqlKind.MINUS) {
      interval = rexBuilder.makeCall(interval.getType(), SqlStdOperatorTable.CHECKED_UNARY_MINUS, List.of(interval));
    }
    long ups = unitsPerSecond(call.getType());
    if (SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(interval.getType())) {
      if (call.getType().getSqlTypeName() == SqlTypeName.TIME) {
        return temporal; // months do not move a time of day
      }
      return rexBuilder.makeCall(call.getType(), PLUS_MONTHS, List.of(temporal, interval, bigint(ups)));
    }
    SqlOperator plus = call.getType().getSqlTypeName() == SqlTypeName.TIME ? TIME_PLUS_MILLIS : PLUS_MILLIS;
    return rexBuilder.makeCall(call.getType(), plus, List.of(temporal, interval, bigint(ups)));
  }

  private RexNode extract(RexCall call) {
    TimeUnitRange unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
    RexNode value = call.getOperands().get(1);
    long ups = unitsPerSecond(value.getType());
    switch (unit) {
      case MILLISECOND:
        return seconds(call, value, ups, MILLIS);
      case MICROSECOND:
        return seconds(call, value, ups, MICROS);
      case NANOSECOND:
        return seconds(call, value, ups, NANOS);
      default: {
        RexNode millis = rescaled(value, withPrecision(value.getType(), 3));
        return call.clone(call.getType(), List.of(call.getOperands().get(0), millis));
      }
    }
  }

  private RexNode seconds(RexCall call, RexNode value, long ups, long target) {
    RelDataType bigint = typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT),
        value.getType().isNullable());
    RexNode fraction = rexBuilder.makeCall(bigint, SECONDS_OF_MINUTE, List.of(value, bigint(ups), bigint(target)));
    return rexBuilder.makeCast(call.getType(), fraction, false, false);
  }

  /** FLOOR(x TO unit) for units of a second and coarser: computed on milliseconds, held in x's unit. */
  private RexNode floor(RexCall call) {
    RexNode value = call.getOperands().get(0);
    TimeUnitRange unit = ((RexLiteral) call.getOperands().get(1)).getValueAs(TimeUnitRange.class);
    if (unit == TimeUnitRange.MILLISECOND || unit == TimeUnitRange.MICROSECOND || unit == TimeUnitRange.NANOSECOND
        || !fine(value.getType())) {
      throw new QueryRejectedException("FLOOR to " + unit + " over " + value.getType().getFullTypeString()
          + " cannot be computed exactly yet");
    }
    RelDataType millis = withPrecision(value.getType(), 3);
    RexNode floored = rexBuilder.makeCall(withPrecision(call.getType(), 3), call.getOperator(),
        List.of(rescaled(value, millis), call.getOperands().get(1)));
    return rescaled(floored, call.getType());
  }

  /** A CAST from or to a fine temporal type. */
  RexNode cast(RexCall call, RexNode operand, RelDataType from, RelDataType to) {
    SqlTypeName source = from.getSqlTypeName();
    SqlTypeName target = to.getSqlTypeName();
    boolean fromTimestamp = source == SqlTypeName.TIMESTAMP || source == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    boolean toTimestamp = target == SqlTypeName.TIMESTAMP || target == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    long ups = unitsPerSecond(from);
    long toUps = unitsPerSecond(to);
    if (fromTimestamp && toTimestamp || source == SqlTypeName.TIME && target == SqlTypeName.TIME) {
      return rescaled(operand, to); // lake's session time zone is UTC: a local timestamp and an instant agree
    }
    if (fromTimestamp && target == SqlTypeName.DATE) {
      return rexBuilder.makeCall(to, TO_DATE, List.of(operand, bigint(ups)));
    }
    if (source == SqlTypeName.DATE && toTimestamp) {
      return rexBuilder.makeCall(to, FROM_DATE, List.of(operand, bigint(toUps)));
    }
    if (fromTimestamp && target == SqlTypeName.TIME) {
      boolean toInt = toUps == MILLIS;
      return rexBuilder.makeCall(to, toInt ? TIME_OF_DAY_TO_INT : TIME_OF_DAY,
          List.of(operand, bigint(ups), bigint(toUps), bigint(keep(to))));
    }
    if (toText(from, to)) {
      return ExactExpressions.text(rexBuilder, source == SqlTypeName.TIME ? TIME_STRING : TIMESTAMP_STRING,
          List.of(operand, bigint(ups), integer(from.getPrecision())), to);
    }
    if (SqlTypeFamily.CHARACTER.contains(from) && toUps > 0) {
      return rexBuilder.makeCall(to, target == SqlTypeName.TIME ? PARSE_TIME : PARSE_TIMESTAMP,
          List.of(operand, bigint(toUps), bigint(keep(to))));
    }
    throw new QueryRejectedException("CAST from " + from.getFullTypeString() + " to " + to.getFullTypeString()
        + " cannot be computed exactly yet");
  }
}
