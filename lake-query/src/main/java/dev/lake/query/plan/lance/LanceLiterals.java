package dev.lake.query.plan.lance;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Literals and type names in the dialect of Lance's filters: single-quoted strings with doubled quotes,
 * {@code X'..'} bytes, {@code DATE '...'} and {@code TIMESTAMP '...'} with every fractional digit, decimals as
 * {@code CAST('1.50' AS DECIMAL(3,2))} (a bare {@code 1.50} is a float there). Numbers are written by the
 * translator, which knows the column they are compared with.
 */
final class LanceLiterals {
  private LanceLiterals() {}

  /**
   * The Lance text of a literal, or null when Lance cannot take it. Numbers come back as the placeholder
   * {@code "?"}: their text depends on the column they meet.
   */
  static String literal(RexLiteral literal) {
    if (literal.isNull()) {
      return null;
    }
    switch (literal.getType().getSqlTypeName()) {
      case BOOLEAN:
        return Boolean.TRUE.equals(literal.getValueAs(Boolean.class)) ? "TRUE" : "FALSE";
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case DECIMAL:
      case REAL:
      case FLOAT:
      case DOUBLE:
        return literal.getValueAs(BigDecimal.class) == null ? null : "?";
      case CHAR:
      case VARCHAR: {
        String value = literal.getValueAs(String.class);
        return value == null ? null : stringLiteral(value);
      }
      case BINARY:
      case VARBINARY: {
        ByteString bytes = literal.getValueAs(ByteString.class);
        return bytes == null ? null : "X'" + bytes.toString(16) + "'";
      }
      case DATE: {
        DateString date = literal.getValueAs(DateString.class);
        return date == null || !yearInRange(date.toString()) ? null : "DATE '" + date + "'";
      }
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
        TimestampString timestamp = literal.getValueAs(TimestampString.class);
        return timestamp == null || !yearInRange(timestamp.toString()) ? null
            : "TIMESTAMP '" + timestamp + "'";
      }
      default:
        return null;
    }
  }

  static boolean yearInRange(String iso) {
    return iso.length() >= 10 && Character.isDigit(iso.charAt(0)) && iso.charAt(4) == '-'
        && !iso.startsWith("0000");
  }

  static String stringLiteral(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  static String decimalLiteral(BigDecimal value) {
    BigDecimal normalized = value.scale() < 0 ? value.setScale(0) : value;
    int scale = normalized.scale();
    int precision = Math.max(normalized.precision(), scale);
    if (precision > 38) {
      return null;
    }
    return "CAST('" + normalized.toPlainString() + "' AS DECIMAL(" + Math.max(precision, 1) + "," + scale + "))";
  }

  static String lanceNumericType(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case TINYINT: return "TINYINT";
      case SMALLINT: return "SMALLINT";
      case INTEGER: return "INT";
      case BIGINT: return "BIGINT";
      case REAL: return "FLOAT";
      case FLOAT:
      case DOUBLE:
        return "DOUBLE";
      case DECIMAL:
        return type.getPrecision() <= 38 ? "DECIMAL(" + type.getPrecision() + "," + type.getScale() + ")" : null;
      default:
        return null;
    }
  }

  static boolean isApproximate(SqlTypeName type) {
    return type == SqlTypeName.REAL || type == SqlTypeName.FLOAT || type == SqlTypeName.DOUBLE;
  }

  static boolean isInteger(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.scale() > 0) {
      return false;
    }
    BigInteger integer = stripped.toBigIntegerExact();
    return integer.bitLength() < 64;
  }

  static boolean fitsInteger(long value, SqlTypeName type) {
    switch (type) {
      case TINYINT: return value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE;
      case SMALLINT: return value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
      case INTEGER: return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
      default: return true;
    }
  }

  static int fractionDigits(RexLiteral literal) {
    SqlTypeName type = literal.getType().getSqlTypeName();
    if (type != SqlTypeName.TIMESTAMP && type != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
      return 0;
    }
    String text = String.valueOf(literal.getValueAs(TimestampString.class));
    int dot = text.indexOf('.');
    if (dot < 0) {
      return 0;
    }
    int end = text.length();
    while (end > dot + 1 && text.charAt(end - 1) == '0') {
      end--;
    }
    return end - dot - 1;
  }
}
