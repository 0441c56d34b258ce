package dev.lake.query.exec;

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
