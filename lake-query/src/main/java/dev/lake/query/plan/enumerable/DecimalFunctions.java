package dev.lake.query.plan.enumerable;

import dev.lake.query.model.InexactResultException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.calcite.linq4j.function.Strict;

/**
 * What Calcite's generated code calls for decimal division and casts ({@link DecimalRewrites} puts the calls in, by
 * this class and the method's name): rounded half-up at the result scale, with an error where the result does not
 * fit its type. A null argument gives null (strict).
 */
@Strict
public final class DecimalFunctions {
  private DecimalFunctions() {}

  /** {@code x / y} rounded half-up at {@code scale}; division by zero and results beyond the precision fail. */
  public static BigDecimal divide(BigDecimal x, BigDecimal y, int precision, int scale) {
    if (y.signum() == 0) {
      throw new InexactResultException("division by zero");
    }
    return fits(x.divide(y, scale, RoundingMode.HALF_UP), precision, scale);
  }

  /** CAST of a decimal (or an integer) to DECIMAL(precision, scale), rounded half-up. */
  public static BigDecimal toDecimal(BigDecimal value, int precision, int scale) {
    return fits(value.setScale(scale, RoundingMode.HALF_UP), precision, scale);
  }

  /** CAST of a DOUBLE to DECIMAL(precision, scale): its shortest decimal form rounded half-up. */
  public static BigDecimal doubleToDecimal(double value, int precision, int scale) {
    if (!Double.isFinite(value)) {
      throw new InexactResultException("cannot cast " + value + " to DECIMAL(" + precision + ", " + scale + ")");
    }
    return toDecimal(BigDecimal.valueOf(value), precision, scale);
  }

  /** CAST of text to DECIMAL(precision, scale), rounded half-up. */
  public static BigDecimal stringToDecimal(String value, int precision, int scale) {
    BigDecimal parsed;
    try {
      parsed = new BigDecimal(value.trim());
    } catch (NumberFormatException e) {
      throw new InexactResultException("cannot cast '" + echo(value) + "' to DECIMAL(" + precision + ", " + scale
          + ")");
    }
    return toDecimal(parsed, precision, scale);
  }

  /**
   * CAST of a decimal to text: every digit of its type's {@code scale}, a zero before the point, never an exponent
   * ({@code 0.050}, {@code -0.0000000001}; Calcite would write {@code .050} and {@code -1E-10}).
   */
  public static String decimalString(BigDecimal value, int scale) {
    return (value.scale() < scale ? value.setScale(scale) : value).toPlainString();
  }

  /** CAST of a decimal to BIGINT, rounded half-up; beyond BIGINT fails. */
  public static long decimalToLong(BigDecimal value) {
    return integer(value, Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
  }

  /** CAST of a decimal to INTEGER, rounded half-up. */
  public static int decimalToInt(BigDecimal value) {
    return (int) integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER");
  }

  /** CAST of a decimal to SMALLINT, rounded half-up. */
  public static short decimalToShort(BigDecimal value) {
    return (short) integer(value, Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT");
  }

  /** CAST of a decimal to TINYINT, rounded half-up. */
  public static byte decimalToByte(BigDecimal value) {
    return (byte) integer(value, Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT");
  }

  /**
   * A DOUBLE about to be cast to the integer type {@code type}, rounded half away from zero (as DuckDB and Trino cast,
   * and as lake casts a DECIMAL), so Calcite's cast, which truncates, finds a whole number: NaN, the infinities and
   * values beyond the type's range fail naming the value and the type.
   */
  public static double integralDouble(double value, String type) {
    if (!Double.isFinite(value)) {
      throw new InexactResultException("cannot cast " + value + " to " + type);
    }
    double magnitude = Math.floor(Math.abs(value));
    if (Math.abs(value) - magnitude >= 0.5) { // exact: a double minus its floor loses nothing
      magnitude += 1;
    }
    double whole = Math.copySign(magnitude, value);
    double bound = IntegerFunctions.max(type) + 1.0; // 2^7, 2^15, 2^31, 2^63: exact as doubles
    if (whole >= bound || whole < -bound) {
      throw new InexactResultException(type + " overflow: " + value + " is out of " + type + "'s range");
    }
    return whole;
  }

  /** ROUND of a DOUBLE to {@code places} (half-up; negative: left of the point); NaN and infinities unchanged. */
  public static double roundDouble(double value, int places) {
    return rounded(value, places, RoundingMode.HALF_UP);
  }

  /** TRUNCATE of a DOUBLE to {@code places} (toward zero); NaN and infinities unchanged. */
  public static double truncateDouble(double value, int places) {
    return rounded(value, places, RoundingMode.DOWN);
  }

  private static double rounded(double value, int places, RoundingMode mode) {
    if (!Double.isFinite(value)) {
      return value;
    }
    BigDecimal exact = BigDecimal.valueOf(value);
    if (places >= exact.scale()) {
      return value; // no digit past the place asked for
    }
    if (places < exact.scale() - exact.precision()) {
      return 0.0; // every digit is right of the place asked for and under half of it
    }
    return exact.setScale(places, mode).doubleValue();
  }

  private static long integer(BigDecimal value, long min, long max, String type) {
    BigDecimal rounded = value.setScale(0, RoundingMode.HALF_UP);
    if (rounded.compareTo(BigDecimal.valueOf(min)) < 0 || rounded.compareTo(BigDecimal.valueOf(max)) > 0) {
      throw new InexactResultException(type + " overflow: " + rounded.toPlainString() + " is out of " + type
          + "'s range");
    }
    return rounded.longValueExact();
  }

  private static BigDecimal fits(BigDecimal value, int precision, int scale) {
    if (value.signum() != 0 && value.precision() - value.scale() > precision - scale) {
      throw new InexactResultException("DECIMAL(" + precision + ", " + scale + ") overflow: "
          + value.toPlainString() + " has more than " + (precision - scale) + " integer digits");
    }
    return value;
  }

  private static String echo(String text) {
    return text.length() <= 60 ? text : text.substring(0, 60) + "...";
  }
}
