package dev.lake.query.vector;

import java.math.BigDecimal;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Reads the selected rows of one Arrow vector into a {@link Col}. */
public final class ColumnReader {
  private ColumnReader() {}

  /** The kind and decimal scale an Arrow type is read as, or null when the vectorized executor cannot read it. */
  public static Col shape(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        return new Col(Kind.LONG, 0, 0);
      case Date:
        return ((ArrowType.Date) type).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
            ? new Col(Kind.LONG, 0, 0) : null;
      case Decimal:
        ArrowType.Decimal decimal = (ArrowType.Decimal) type;
        return decimal.getBitWidth() == 128 ? new Col(Kind.LONG, 0, decimal.getScale()) : null;
      case FloatingPoint:
        return new Col(Kind.DOUBLE, 0, 0);
      case Utf8:
        return new Col(Kind.STRING, 0, 0);
      case Bool:
        return new Col(Kind.BOOL, 0, 0);
      default:
        return null;
    }
  }

  static Col read(LoadedColumn column, int[] rows, int size) {
    FieldVector vector = column.vector;
    Col col;
    if (vector instanceof DecimalVector) {
      col = decimals((DecimalVector) vector, column, rows, size);
    } else if (vector instanceof BigIntVector || vector instanceof IntVector || vector instanceof DateDayVector
        || vector instanceof SmallIntVector || vector instanceof TinyIntVector) {
      col = integers(column, rows, size);
    } else if (vector instanceof Float8Vector) {
      col = Col.doubles(size);
      int count = vector.getValueCount();
      int first = size == 0 ? 0 : rows[0];
      double[] values = new double[size == 0 ? 0 : rows[size - 1] - first + 1];
      column.data(8).asDoubleBuffer().get(first, values);
      for (int i = 0; i < size; i++) {
        col.doubles[i] = values[rows[i] - first];
      }
    } else if (vector instanceof Float4Vector) {
      col = Col.doubles(size);
      Float4Vector floats = (Float4Vector) vector;
      for (int i = 0; i < size; i++) {
        col.doubles[i] = floats.isNull(rows[i]) ? 0 : floats.get(rows[i]);
      }
    } else if (vector instanceof BaseVariableWidthVector) {
      col = new Col(Kind.STRING, size, 0);
      col.strings = StringSource.of(column, rows);
    } else if (vector instanceof BitVector) {
      col = Col.bools(size);
      BitVector bits = (BitVector) vector;
      for (int i = 0; i < size; i++) {
        col.longs[i] = bits.isNull(rows[i]) ? 0 : bits.get(rows[i]);
      }
    } else {
      throw new IllegalStateException("the vectorized executor cannot read a column of Arrow type "
          + vector.getField().getType() + " (column " + vector.getName() + ")");
    }
    if (column.hasNulls) {
      for (int i = 0; i < size; i++) {
        if (vector.isNull(rows[i])) {
          col.setNull(i);
        }
      }
    }
    return col;
  }

  private static Col integers(LoadedColumn column, int[] rows, int size) {
    FieldVector vector = column.vector;
    Col col = Col.longs(size, 0);
    ArrowBuf data = vector.getDataBuffer();
    long[] out = col.longs;
    int count = vector.getValueCount();
    int first = size == 0 ? 0 : rows[0];
    int span = size == 0 ? 0 : rows[size - 1] - first + 1;
    if (vector instanceof BigIntVector) {
      long[] values = new long[span];
      column.data(8).asLongBuffer().get(first, values);
      for (int i = 0; i < size; i++) {
        out[i] = values[rows[i] - first];
      }
    } else if (vector instanceof IntVector || vector instanceof DateDayVector) {
      int[] values = new int[span];
      column.data(4).asIntBuffer().get(first, values);
      for (int i = 0; i < size; i++) {
        out[i] = values[rows[i] - first];
      }
    } else if (vector instanceof SmallIntVector) {
      for (int i = 0; i < size; i++) {
        out[i] = data.getShort((long) rows[i] * 2);
      }
    } else {
      for (int i = 0; i < size; i++) {
        out[i] = data.getByte(rows[i]);
      }
    }
    return col;
  }

  private static Col decimals(DecimalVector vector, LoadedColumn column, int[] rows, int size) {
    Col col = Col.longs(size, vector.getScale());
    int count = vector.getValueCount();
    int first = size == 0 ? 0 : rows[0];
    int span = size == 0 ? 0 : rows[size - 1] - first + 1;
    long[] words = new long[span * 2];
    column.data(16).asLongBuffer().get(first * 2, words);
    long[] out = col.longs;
    for (int i = 0; i < size; i++) {
      int at = (rows[i] - first) * 2;
      long low = words[at];
      long high = words[at + 1];
      out[i] = low;
      if (high != (low >> 63) && !vector.isNull(rows[i])) {
        BigDecimal value = vector.getObject(rows[i]);
        col.setWide(i, value);
      }
    }
    return col;
  }
}
