package dev.lake.query.plan.enumerable;

import dev.lake.query.model.InexactResultException;
import org.apache.calcite.linq4j.function.Strict;

/**
 * What Calcite's generated code calls for integer negation and ABS ({@link ExactExpressions} puts the calls in): the
 * negation of a type's smallest value does not fit the type and fails naming it (Calcite's ABS wraps, giving the
 * smallest value back). A null argument gives null (strict).
 */
@Strict
public final class IntegerFunctions {
  private IntegerFunctions() {}

  /** {@code -value} of the integer type named {@code type}. */
  public static long negate(long value, String type) {
    return negated(value, false, type);
  }

  /** {@code ABS(value)} of the integer type named {@code type}. */
  public static long abs(long value, String type) {
    return value >= 0 ? value : negated(value, true, type);
  }

  /** The largest value of the integer type named {@code type} (its smallest is {@code -max - 1}). */
  static long max(String type) {
    return switch (type) {
      case "TINYINT" -> Byte.MAX_VALUE;
      case "SMALLINT" -> Short.MAX_VALUE;
      case "INTEGER" -> Integer.MAX_VALUE;
      default -> Long.MAX_VALUE;
    };
  }

  /** {@code -value}, unless it is beyond the type (only its smallest value's is). */
  private static long negated(long value, boolean abs, String type) {
    if (value < -max(type)) {
      throw new InexactResultException(type + " overflow: " + (abs ? "ABS(" + value + ")" : "-(" + value + ")")
          + " is beyond " + type + "'s range");
    }
    return -value;
  }
}
