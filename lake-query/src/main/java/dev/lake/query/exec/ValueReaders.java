package dev.lake.query.exec;

import dev.lake.query.plan.types.ColumnType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.avatica.util.ByteString;

/**
 * Reads Arrow values as Calcite's row runtime represents them: integers boxed by width, REAL as Float, DOUBLE as
 * Double, DECIMAL as BigDecimal, VARCHAR as String, VARBINARY as ByteString, BOOLEAN as Boolean, DATE as int days,
 * TIME and TIMESTAMP (with or without zone) in the unit of their precision (lake's {@code ExactRuntime}): TIME(p<=3)
 * as int milliseconds of the day, TIMESTAMP(p<=3) as long epoch milliseconds, and TIME(p)/TIMESTAMP(p) with p > 3 as
 * longs of micro- (p <= 6) or nanoseconds. A stored column's SQL precision is its unit's, so a vector is read in
 * its own unit (seconds as milliseconds) and never rounded.
 */
final class ValueReaders {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private ValueReaders() {}

  /** Reads one row's value of a column. */
  @FunctionalInterface
  interface ValueReader {
    Object read(int row);
  }

  /**
   * Reads a column computed by Lance's SQL engine as the row runtime represents {@code type}: Lance may answer with
   * another Arrow type than Calcite derived (a 32-bit EXTRACT for a BIGINT, a narrower decimal, a double AVG of
   * integers), so numbers are converted to the Java class of the SQL type and decimals to its scale.
   */
  static ValueReader forColumn(FieldVector vector, ColumnType type) {
    ValueReader reader = forVector(vector);
    switch (type.type()) {
      case BOOLEAN:
        // Lance's SQL engine answers BOOLEAN columns as TINYINT 0/1 (LanceSqlGenerator says why)
        return vector instanceof TinyIntVector ? row -> booleanOf(reader.read(row)) : reader;
      case TINYINT:
        return numbers(reader, Number::byteValue);
      case SMALLINT:
        return numbers(reader, Number::shortValue);
      case INTEGER:
        return vector instanceof IntVector ? reader : numbers(reader, Number::intValue);
      case BIGINT:
        return vector instanceof BigIntVector ? reader : numbers(reader, Number::longValue);
      case REAL:
        return vector instanceof Float4Vector ? reader : numbers(reader, Number::floatValue);
      case FLOAT:
      case DOUBLE:
        return vector instanceof Float8Vector ? reader : numbers(reader, Number::doubleValue);
      case DECIMAL: {
        int scale = type.scale();
        if (vector instanceof DecimalVector && ((DecimalVector) vector).getScale() == scale) {
          return reader;
        }
        return row -> {
          Object value = reader.read(row);
          if (value == null) {
            return null;
          }
          BigDecimal decimal = value instanceof BigDecimal ? (BigDecimal) value : new BigDecimal(value.toString());
          return decimal.setScale(scale, RoundingMode.HALF_UP);
        };
      }
      case TIME:
      case TIMESTAMP:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return temporal(vector, reader, type);
      default:
        return reader;
    }
  }

  /** A temporal column Lance computed, in the unit its SQL type is held in (Lance may answer in another unit). */
  private static ValueReader temporal(FieldVector vector, ValueReader reader, ColumnType type) {
    long have = unitsPerSecond(vector.getField().getType());
    int precision = type.precision();
    long want = precision <= 3 ? 1_000L : precision <= 6 ? 1_000_000L : 1_000_000_000L;
    boolean time = type.type() == org.apache.calcite.sql.type.SqlTypeName.TIME;
    if (have == 0 || have == want) {
      return reader;
    }
    return row -> {
      Object value = reader.read(row);
      if (value == null) {
        return null;
      }
      long units = ((Number) value).longValue();
      long converted = want > have ? Math.multiplyExact(units, want / have) : Math.floorDiv(units, have / want);
      return time && want == 1_000L ? (Object) (int) converted : (Object) converted;
    };
  }

  /** The units per second values read from a temporal vector are in (seconds read as milliseconds), else 0. */
  private static long unitsPerSecond(ArrowType type) {
    TimeUnit unit = type instanceof ArrowType.Timestamp ? ((ArrowType.Timestamp) type).getUnit()
        : type instanceof ArrowType.Time ? ((ArrowType.Time) type).getUnit() : null;
    if (unit == null) {
      return 0;
    }
    switch (unit) {
      case SECOND:
      case MILLISECOND:
        return 1_000L;
      case MICROSECOND:
        return 1_000_000L;
      default:
        return 1_000_000_000L;
    }
  }

  /** The BOOLEAN a TINYINT 0 or 1 stands for (NULL for NULL); any other value is refused, never guessed. */
  static Boolean booleanOf(Object value) {
    if (value == null) {
      return null;
    }
    byte b = ((Number) value).byteValue();
    if (b != 0 && b != 1) {
      throw new IllegalStateException("Lance's SQL engine answered " + b + " for a BOOLEAN column (0 or 1 expected)");
    }
    return b == 1;
  }

  private static ValueReader numbers(ValueReader reader, java.util.function.Function<Number, Object> convert) {
    return row -> {
      Object value = reader.read(row);
      return value == null ? null : convert.apply((Number) value);
    };
  }

  static ValueReader forVector(FieldVector vector) {
    ValueReader reader = nonNull(vector);
    return row -> vector.isNull(row) ? null : reader.read(row);
  }

  private static ValueReader nonNull(FieldVector vector) {
    if (vector instanceof TinyIntVector) {
      TinyIntVector v = (TinyIntVector) vector;
      return v::get;
    }
    if (vector instanceof SmallIntVector) {
      SmallIntVector v = (SmallIntVector) vector;
      return v::get;
    }
    if (vector instanceof IntVector) {
      IntVector v = (IntVector) vector;
      return v::get;
    }
    if (vector instanceof BigIntVector) {
      BigIntVector v = (BigIntVector) vector;
      return v::get;
    }
    if (vector instanceof Float4Vector) {
      Float4Vector v = (Float4Vector) vector;
      return v::get;
    }
    if (vector instanceof Float8Vector) {
      Float8Vector v = (Float8Vector) vector;
      return v::get;
    }
    if (vector instanceof DecimalVector) {
      DecimalVector v = (DecimalVector) vector;
      return v::getObject;
    }
    if (vector instanceof Decimal256Vector) {
      Decimal256Vector v = (Decimal256Vector) vector;
      return v::getObject;
    }
    if (vector instanceof BitVector) {
      BitVector v = (BitVector) vector;
      return row -> v.get(row) != 0;
    }
    if (vector instanceof DateDayVector) {
      DateDayVector v = (DateDayVector) vector;
      return v::get;
    }
    if (vector instanceof DateMilliVector) {
      DateMilliVector v = (DateMilliVector) vector;
      return row -> (int) Math.floorDiv(v.get(row), MILLIS_PER_DAY);
    }
    if (vector instanceof TimeSecVector) {
      TimeSecVector v = (TimeSecVector) vector;
      return row -> v.get(row) * 1000;
    }
    if (vector instanceof TimeMilliVector) {
      TimeMilliVector v = (TimeMilliVector) vector;
      return v::get;
    }
    if (vector instanceof TimeMicroVector) {
      TimeMicroVector v = (TimeMicroVector) vector;
      return v::get;
    }
    if (vector instanceof TimeNanoVector) {
      TimeNanoVector v = (TimeNanoVector) vector;
      return v::get;
    }
    if (vector instanceof TimeStampVector) {
      TimeStampVector v = (TimeStampVector) vector;
      TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
      return unit == TimeUnit.SECOND ? row -> Math.multiplyExact(v.get(row), 1000L) : v::get;
    }
    if (vector instanceof FixedSizeBinaryVector) {
      FixedSizeBinaryVector v = (FixedSizeBinaryVector) vector;
      return row -> new ByteString(v.get(row));
    }
    if (vector instanceof VariableWidthFieldVector) {
      VariableWidthFieldVector v = (VariableWidthFieldVector) vector;
      ArrowType.ArrowTypeID type = vector.getField().getType().getTypeID();
      if (type == ArrowType.ArrowTypeID.Utf8 || type == ArrowType.ArrowTypeID.LargeUtf8
          || type == ArrowType.ArrowTypeID.Utf8View) {
        return row -> new String(v.get(row), StandardCharsets.UTF_8);
      }
      return row -> new ByteString(v.get(row));
    }
    throw new IllegalStateException("no reader for Arrow type " + vector.getField().getType()
        + " of column " + vector.getField().getName());
  }
}
