package dev.lake.query.vector;

import dev.lake.query.model.QueryDataException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Writes a {@link VectorResult}'s columns into Arrow vectors of the statement's result types, a column at a time.
 * The values are those of the column's {@link ResultType}, converted to the vector's type as the row runtime's
 * writer converts them (lake-query's {@code exec.ValueWriters}): a DECIMAL set to the vector's scale (HALF_UP) and
 * refused when it needs more digits than the vector's precision, a DATE as days, strings as UTF-8. A column of its
 * natural vector type is written straight from the executor's arrays; any other pairing writes the boxed value with
 * the row runtime's own writer, passed in by the caller.
 */
final class ResultWriters {
  /** Rows written per column before the next column (and the batch's size check). */
  static final int CHUNK_ROWS = 1_024;

  private ResultWriters() {}

  /** Writes result rows {@code [from, to)} of one column at vector positions {@code at ..}. */
  @FunctionalInterface
  interface Writer {
    void write(int from, int to, int at);
  }

  /** Sets one non-null value at a vector position. */
  @FunctionalInterface
  private interface Value {
    void set(int at, int row);
  }

  static Writer forVector(FieldVector vector, VectorResult result, int column,
      VectorResult.BoxedWriters boxedWriters) {
    Value value = natural(vector, result, column);
    if (value == null) {
      VectorResult.BoxedWriter boxed = boxedWriters.forVector(vector);
      value = (at, row) -> boxed.set(at, result.boxed(row, column));
    }
    Value set = value;
    return (from, to, at) -> {
      for (int row = from, i = at; row < to; row++, i++) {
        if (result.isNull(row, column)) {
          vector.setNull(i);
        } else {
          set.set(i, row);
        }
      }
    };
  }

  /** The writer of a column into its natural vector type, or null for another pairing. */
  private static Value natural(FieldVector vector, VectorResult result, int column) {
    ResultType type = result.type(column).type();
    if (vector instanceof BigIntVector && type == ResultType.BIGINT) {
      BigIntVector v = (BigIntVector) vector;
      return (at, row) -> v.setSafe(at, result.integer(row, column));
    }
    if ((vector instanceof IntVector && type == ResultType.INTEGER)
        || (vector instanceof DateDayVector && type == ResultType.DATE)) {
      return vector instanceof IntVector
          ? (at, row) -> ((IntVector) vector).setSafe(at,
              (int) VectorResult.narrowed(result.integer(row, column), type))
          : (at, row) -> ((DateDayVector) vector).setSafe(at,
              (int) VectorResult.narrowed(result.integer(row, column), type));
    }
    if (vector instanceof SmallIntVector && type == ResultType.SMALLINT) {
      SmallIntVector v = (SmallIntVector) vector;
      return (at, row) -> v.setSafe(at, (short) VectorResult.narrowed(result.integer(row, column), type));
    }
    if (vector instanceof TinyIntVector && type == ResultType.TINYINT) {
      TinyIntVector v = (TinyIntVector) vector;
      return (at, row) -> v.setSafe(at, (byte) VectorResult.narrowed(result.integer(row, column), type));
    }
    if (vector instanceof Float8Vector && type == ResultType.DOUBLE) {
      Float8Vector v = (Float8Vector) vector;
      return (at, row) -> v.setSafe(at, result.real(row, column));
    }
    if (vector instanceof Float8Vector && type == ResultType.FLOAT) {
      Float8Vector v = (Float8Vector) vector;
      return (at, row) -> v.setSafe(at, (double) (float) result.real(row, column));
    }
    if (vector instanceof Float4Vector && type == ResultType.FLOAT) {
      Float4Vector v = (Float4Vector) vector;
      return (at, row) -> v.setSafe(at, (float) result.real(row, column));
    }
    if (vector instanceof BitVector && type == ResultType.BOOLEAN) {
      BitVector v = (BitVector) vector;
      return (at, row) -> v.setSafe(at, result.bool(row, column) ? 1 : 0);
    }
    if (vector instanceof DecimalVector && type == ResultType.DECIMAL) {
      return decimal((DecimalVector) vector, result, column);
    }
    if (vector instanceof VarCharVector && type == ResultType.STRING) {
      VarCharVector v = (VarCharVector) vector;
      return (at, row) -> v.setSafe(at, utf8(result.utf8(row, column)));
    }
    if (vector instanceof LargeVarCharVector && type == ResultType.STRING) {
      LargeVarCharVector v = (LargeVarCharVector) vector;
      return (at, row) -> v.setSafe(at, utf8(result.utf8(row, column)));
    }
    return null;
  }

  /**
   * A DECIMAL column: an unscaled long of the vector's scale is written as it is (after the precision check);
   * anything else as the BigDecimal at the result's scale, then the vector's.
   */
  private static Value decimal(DecimalVector v, VectorResult result, int column) {
    int scale = v.getScale();
    int precision = v.getPrecision();
    Col col = result.column(column);
    if (col.kind == Kind.LONG && col.scale == result.type(column).scale() && col.scale == scale) {
      long limit = precision >= 19 ? Long.MAX_VALUE : TEN_POWERS[precision];
      return (at, row) -> {
        int i = result.position(row);
        if (col.isWide(i)) {
          setDecimal(v, at, col.decimal(i).setScale(scale, RoundingMode.HALF_UP), precision, scale);
          return;
        }
        long unscaled = col.longs[i];
        if (unscaled >= limit || unscaled <= -limit) {
          setDecimal(v, at, BigDecimal.valueOf(unscaled, scale), precision, scale);
          return;
        }
        v.setSafe(at, unscaled);
      };
    }
    return (at, row) -> setDecimal(v, at, result.decimal(row, column).setScale(scale, RoundingMode.HALF_UP),
        precision, scale);
  }

  private static final long[] TEN_POWERS = new long[19];

  static {
    TEN_POWERS[0] = 1;
    for (int i = 1; i < TEN_POWERS.length; i++) {
      TEN_POWERS[i] = TEN_POWERS[i - 1] * 10;
    }
  }

  private static void setDecimal(DecimalVector v, int at, BigDecimal d, int precision, int scale) {
    if (d.precision() > precision) {
      throw new QueryDataException("numeric overflow: a value needs " + d.precision()
          + " digits, more than its result type DECIMAL(" + precision + ", " + scale + ") holds", null);
    }
    v.setSafe(at, d);
  }

  /** UTF-8 bytes as a Java string would encode them again (invalid sequences replaced, as the row writer does). */
  private static byte[] utf8(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0) {
        return new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
      }
    }
    return bytes;
  }

  private static BigDecimal toDecimal(Object value, int scale) {
    BigDecimal decimal = value instanceof BigDecimal ? (BigDecimal) value : new BigDecimal(value.toString());
    return decimal.setScale(scale, RoundingMode.HALF_UP);
  }
}
