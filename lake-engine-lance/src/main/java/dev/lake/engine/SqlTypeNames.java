package dev.lake.engine;

import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Stored Arrow types as lake's SQL names, the way users read them: {@code BIGINT}, {@code DOUBLE}, {@code VARCHAR},
 * {@code DECIMAL(15,2)}, {@code TIMESTAMP(6)}, {@code TIMESTAMP(6) WITH LOCAL TIME ZONE}, {@code TIME(6)},
 * {@code BINARY(16)} (the Arrow-to-SQL mapping lake-query's planner uses). An Arrow type lake's SQL cannot read is
 * named as Arrow names it ({@code Int(32, false)}).
 */
public final class SqlTypeNames {
  private SqlTypeNames() {}

  /** The bare SQL type name (no parameters), or null for a type lake's SQL cannot read. */
  public static String name(ArrowType type) {
    switch (type.getTypeID()) {
      case Int: {
        ArrowType.Int integer = (ArrowType.Int) type;
        if (!integer.getIsSigned()) {
          return null;
        }
        switch (integer.getBitWidth()) {
          case 8: return "TINYINT";
          case 16: return "SMALLINT";
          case 32: return "INTEGER";
          case 64: return "BIGINT";
          default: return null;
        }
      }
      case FloatingPoint: {
        FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
        return precision == FloatingPointPrecision.SINGLE ? "REAL"
            : precision == FloatingPointPrecision.DOUBLE ? "DOUBLE" : null;
      }
      case Decimal: return "DECIMAL";
      case Utf8:
      case LargeUtf8:
      case Utf8View:
        return "VARCHAR";
      case Binary:
      case LargeBinary:
      case BinaryView:
        return "VARBINARY";
      case FixedSizeBinary: return "BINARY";
      case Bool: return "BOOLEAN";
      case Date: return "DATE";
      case Time: return "TIME";
      case Timestamp: {
        String zone = ((ArrowType.Timestamp) type).getTimezone();
        return zone == null || zone.isEmpty() ? "TIMESTAMP" : "TIMESTAMP WITH LOCAL TIME ZONE";
      }
      default: return null;
    }
  }

  /** The SQL spelling with its parameters ({@code DECIMAL(15,2)}, {@code TIMESTAMP(6)}); see the class comment. */
  public static String of(ArrowType type) {
    String name = name(type);
    if (name == null) {
      return type.toString();
    }
    switch (type.getTypeID()) {
      case Decimal:
        return "DECIMAL(" + ((ArrowType.Decimal) type).getPrecision() + "," + ((ArrowType.Decimal) type).getScale()
            + ")";
      case FixedSizeBinary:
        return "BINARY(" + ((ArrowType.FixedSizeBinary) type).getByteWidth() + ")";
      case Time:
        return "TIME(" + fractionDigits(((ArrowType.Time) type).getUnit()) + ")";
      case Timestamp: {
        String zone = ((ArrowType.Timestamp) type).getTimezone();
        String base = "TIMESTAMP(" + fractionDigits(((ArrowType.Timestamp) type).getUnit()) + ")";
        return zone == null || zone.isEmpty() ? base : base + " WITH LOCAL TIME ZONE";
      }
      default:
        return name;
    }
  }

  /** Fractional-second digits of a time unit: 0, 3, 6 or 9. */
  public static int fractionDigits(TimeUnit unit) {
    switch (unit) {
      case SECOND: return 0;
      case MILLISECOND: return 3;
      case MICROSECOND: return 6;
      default: return 9;
    }
  }
}
