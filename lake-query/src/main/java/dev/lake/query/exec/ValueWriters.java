package dev.lake.query.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.avatica.util.ByteString;

/**
 * Writes values of Calcite's row runtime (see {@link ValueReaders}) into result vectors. A result column that is a
 * stored column keeps the stored Arrow type; a temporal value is already in its vector's unit (its SQL precision's:
 * milliseconds for seconds vectors, which are whole seconds), decimals are set to the vector's scale.
 */
final class ValueWriters {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private ValueWriters() {}

  /** Writes one row's value (never null: nulls are set by the caller). */
  @FunctionalInterface
  interface ValueWriter {
    void write(int row, Object value);
  }

  static ValueWriter forVector(FieldVector vector) {
    ValueWriter writer = nonNull(vector);
    return (row, value) -> {
      if (value == null) {
        vector.setNull(row);
      } else {
        writer.write(row, value);
      }
    };
  }

  private static ValueWriter nonNull(FieldVector vector) {
    if (vector instanceof BitVector) {
      BitVector v = (BitVector) vector;
      return (row, value) -> v.setSafe(row, ((Boolean) value) ? 1 : 0);
    }
    if (vector instanceof TinyIntVector) {
      TinyIntVector v = (TinyIntVector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).byteValue());
    }
    if (vector instanceof SmallIntVector) {
      SmallIntVector v = (SmallIntVector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).shortValue());
    }
    if (vector instanceof IntVector) {
      IntVector v = (IntVector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).intValue());
    }
    if (vector instanceof BigIntVector) {
      BigIntVector v = (BigIntVector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).longValue());
    }
    if (vector instanceof Float4Vector) {
      Float4Vector v = (Float4Vector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).floatValue());
    }
    if (vector instanceof Float8Vector) {
      Float8Vector v = (Float8Vector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).doubleValue());
    }
    if (vector instanceof DecimalVector) {
      DecimalVector v = (DecimalVector) vector;
      int scale = v.getScale();
      int precision = v.getPrecision();
      return (row, value) -> {
        java.math.BigDecimal d = decimal(value, scale);
        if (d.precision() > precision) {
          throw new dev.lake.query.model.QueryDataException("numeric overflow: a value needs " + d.precision()
              + " digits, more than its result type DECIMAL(" + precision + ", " + scale + ") holds", null);
        }
        v.setSafe(row, d);
      };
    }
    if (vector instanceof Decimal256Vector) {
      Decimal256Vector v = (Decimal256Vector) vector;
      int scale = v.getScale();
      return (row, value) -> v.setSafe(row, decimal(value, scale));
    }
    if (vector instanceof VarCharVector) {
      VarCharVector v = (VarCharVector) vector;
      return (row, value) -> v.setSafe(row, value.toString().getBytes(StandardCharsets.UTF_8));
    }
    if (vector instanceof VarBinaryVector) {
      VarBinaryVector v = (VarBinaryVector) vector;
      return (row, value) -> v.setSafe(row, bytes(value));
    }
    if (vector instanceof LargeVarCharVector) {
      LargeVarCharVector v = (LargeVarCharVector) vector;
      return (row, value) -> v.setSafe(row, value.toString().getBytes(StandardCharsets.UTF_8));
    }
    if (vector instanceof LargeVarBinaryVector) {
      LargeVarBinaryVector v = (LargeVarBinaryVector) vector;
      return (row, value) -> v.setSafe(row, bytes(value));
    }
    if (vector instanceof FixedSizeBinaryVector) {
      FixedSizeBinaryVector v = (FixedSizeBinaryVector) vector;
      return (row, value) -> v.setSafe(row, bytes(value));
    }
    if (vector instanceof DateDayVector) {
      DateDayVector v = (DateDayVector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).intValue());
    }
    if (vector instanceof DateMilliVector) {
      DateMilliVector v = (DateMilliVector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).longValue() * MILLIS_PER_DAY);
    }
    if (vector instanceof TimeSecVector) {
      TimeSecVector v = (TimeSecVector) vector;
      return (row, value) -> v.setSafe(row, (int) Math.floorDiv(((Number) value).longValue(), 1000L));
    }
    if (vector instanceof TimeMilliVector) {
      TimeMilliVector v = (TimeMilliVector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).intValue());
    }
    if (vector instanceof TimeMicroVector) {
      TimeMicroVector v = (TimeMicroVector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).longValue());
    }
    if (vector instanceof TimeNanoVector) {
      TimeNanoVector v = (TimeNanoVector) vector;
      return (row, value) -> v.setSafe(row, ((Number) value).longValue());
    }
    if (vector instanceof TimeStampVector) {
      TimeStampVector v = (TimeStampVector) vector;
      TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
      return unit == TimeUnit.SECOND
          ? (row, value) -> v.setSafe(row, Math.floorDiv(((Number) value).longValue(), 1000L))
          : (row, value) -> v.setSafe(row, ((Number) value).longValue());
    }
    if (vector instanceof NullVector) {
      return (row, value) -> {
        throw new IllegalStateException("a NULL-typed column received a value");
      };
    }
    throw new IllegalStateException("no writer for Arrow type " + vector.getField().getType()
        + " of column " + vector.getField().getName());
  }

  private static BigDecimal decimal(Object value, int scale) {
    BigDecimal decimal = value instanceof BigDecimal ? (BigDecimal) value : new BigDecimal(value.toString());
    return decimal.setScale(scale, RoundingMode.HALF_UP);
  }

  private static byte[] bytes(Object value) {
    return value instanceof ByteString ? ((ByteString) value).getBytes() : (byte[]) value;
  }
}
