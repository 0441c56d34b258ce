package dev.lake.query.plan;

import dev.lake.query.model.QueryRejectedException;
import dev.lake.query.sql.Echo;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Replaces every {@code ?} in a plan by a literal of the parameter's inferred type, so both execution paths see
 * literals (and filters on parameters can be pushed into Lance).
 *
 * <p>Accepted Java values: Long, Integer, Short, Byte, Double, Float, BigDecimal, String, Boolean, LocalDate,
 * LocalTime, LocalDateTime, byte[], or null. A value is converted to the parameter's type when that loses
 * nothing (e.g. an Integer for a BIGINT, a Long for a DECIMAL, a String for a DATE in ISO form); otherwise the
 * statement is rejected naming the parameter, its type and the value's class.
 */
public final class ParameterBinder {
  private ParameterBinder() {}

  /** {@code plan} with every dynamic parameter replaced by the literal of {@code values.get(index)}. */
  public static RelNode bind(RelNode plan, List<Object> values) {
    RexBuilder rexBuilder = plan.getCluster().getRexBuilder();
    RexShuttle literals = new RexShuttle() {
      @Override
      public RexNode visitDynamicParam(RexDynamicParam param) {
        return literal(rexBuilder, param.getIndex(), param.getType(), values.get(param.getIndex()));
      }
    };
    return plan.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        return visited.accept(literals);
      }
    });
  }

  static RexNode literal(RexBuilder rexBuilder, int index, RelDataType type, Object value) {
    if (value == null) {
      return rexBuilder.makeNullLiteral(rexBuilder.getTypeFactory().createTypeWithNullability(type, true));
    }
    try {
      return rexBuilder.makeLiteral(convert(type, value), type, true);
    } catch (ArithmeticException | IllegalArgumentException | ClassCastException
             | java.time.DateTimeException e) {
      throw new QueryRejectedException("parameter " + (index + 1) + " expects " + type.getFullTypeString()
          + " but was given " + value.getClass().getSimpleName() + " " + Echo.of(String.valueOf(value))
          + ": " + e.getMessage(), e);
    }
  }

  /** The value in the representation Calcite's literals use for {@code type}. */
  private static Object convert(RelDataType type, Object value) {
    switch (type.getSqlTypeName()) {
      case BOOLEAN:
        if (value instanceof Boolean) {
          return value;
        }
        if (value instanceof String && ("true".equalsIgnoreCase((String) value)
            || "false".equalsIgnoreCase((String) value))) {
          return Boolean.valueOf((String) value);
        }
        throw new IllegalArgumentException("not a boolean");
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT: {
        BigDecimal exact = exact(value).setScale(0, RoundingMode.UNNECESSARY);
        long bound = type.getSqlTypeName() == SqlTypeName.BIGINT ? Long.MAX_VALUE
            : type.getSqlTypeName() == SqlTypeName.INTEGER ? Integer.MAX_VALUE
            : type.getSqlTypeName() == SqlTypeName.SMALLINT ? Short.MAX_VALUE
            : Byte.MAX_VALUE;
        BigInteger integer = exact.toBigIntegerExact();
        if (integer.compareTo(BigInteger.valueOf(bound)) > 0
            || integer.compareTo(BigInteger.valueOf(-bound - 1)) < 0) {
          throw new ArithmeticException("out of range");
        }
        return exact;
      }
      case DECIMAL: {
        BigDecimal exact = exact(value).setScale(type.getScale(), RoundingMode.UNNECESSARY);
        if (exact.precision() - exact.scale() > type.getPrecision() - type.getScale()) {
          throw new ArithmeticException("too many digits");
        }
        return exact;
      }
      case REAL:
      case FLOAT:
      case DOUBLE:
        if (value instanceof Number) {
          return new BigDecimal(value.toString());
        }
        if (value instanceof String) {
          return new BigDecimal((String) value);
        }
        throw new IllegalArgumentException("not a number");
      case CHAR:
      case VARCHAR:
        if (value instanceof String) {
          return value;
        }
        throw new IllegalArgumentException("not a string");
      case BINARY:
      case VARBINARY:
        if (value instanceof byte[]) {
          return new ByteString((byte[]) value);
        }
        throw new IllegalArgumentException("not bytes");
      case DATE:
        if (value instanceof LocalDate) {
          return DateString.fromDaysSinceEpoch((int) ((LocalDate) value).toEpochDay());
        }
        if (value instanceof String) {
          return DateString.fromDaysSinceEpoch((int) LocalDate.parse((String) value).toEpochDay());
        }
        throw new IllegalArgumentException("not a date");
      case TIME:
        if (value instanceof LocalTime || value instanceof String) {
          LocalTime time = value instanceof LocalTime ? (LocalTime) value : LocalTime.parse((String) value);
          return new TimeString(time.getHour(), time.getMinute(), time.getSecond())
              .withNanos(time.getNano());
        }
        throw new IllegalArgumentException("not a time");
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        if (value instanceof LocalDateTime || value instanceof String) {
          LocalDateTime at = value instanceof LocalDateTime ? (LocalDateTime) value
              : LocalDateTime.parse(((String) value).replace(' ', 'T'));
          return new TimestampString(at.getYear(), at.getMonthValue(), at.getDayOfMonth(), at.getHour(),
              at.getMinute(), at.getSecond()).withNanos(at.getNano());
        }
        if (value instanceof LocalDate) {
          LocalDate day = (LocalDate) value;
          return new TimestampString(day.getYear(), day.getMonthValue(), day.getDayOfMonth(), 0, 0, 0);
        }
        throw new IllegalArgumentException("not a timestamp");
      default:
        throw new IllegalArgumentException("parameters of this type cannot be bound yet");
    }
  }

  private static BigDecimal exact(Object value) {
    if (value instanceof BigDecimal) {
      return (BigDecimal) value;
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigInteger) {
      return new BigDecimal((BigInteger) value);
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new ArithmeticException("not a finite number");
      }
      return new BigDecimal(value.toString());
    }
    if (value instanceof String) {
      return new BigDecimal(((String) value).strip());
    }
    throw new IllegalArgumentException("not a number");
  }
}
