package dev.lake.query.exec;

import dev.lake.query.plan.ColumnType;
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
 * TIME as int milliseconds of the day, TIMESTAMP (with or without zone) as long epoch milliseconds. Finer units are
 * floored to milliseconds.
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
      default:
        return reader;
    }
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
      return row -> (int) Math.floorDiv(v.get(row), 1_000L);
    }
    if (vector instanceof TimeNanoVector) {
      TimeNanoVector v = (TimeNanoVector) vector;
      return row -> (int) Math.floorDiv(v.get(row), 1_000_000L);
    }
    if (vector instanceof TimeStampVector) {
      TimeStampVector v = (TimeStampVector) vector;
      TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
      return row -> toMillis(v.get(row), unit);
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

  static long toMillis(long value, TimeUnit unit) {
    switch (unit) {
      case SECOND: return Math.multiplyExact(value, 1000L);
      case MILLISECOND: return value;
      case MICROSECOND: return Math.floorDiv(value, 1_000L);
      default: return Math.floorDiv(value, 1_000_000L);
    }
  }
}
