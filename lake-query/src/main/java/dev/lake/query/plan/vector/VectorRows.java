package dev.lake.query.plan.vector;

import dev.lake.query.plan.types.RowShape;
import dev.lake.query.vector.VectorResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A vectorized result as rows of Calcite's row runtime, for a vectorized subtree under a Calcite operator (a pushed
 * subtree, a vectorized join, a scan of cached columns): each value as its result type gives it in the row runtime
 * (Long, Integer, Short, Byte, Integer days for DATE, BigDecimal at the column's scale, Double, Float, Boolean,
 * String), each row in the shape the consuming operator reads. A statement run wholly by the vectorized executor
 * never comes here: its result is written into Arrow batches as it is.
 */
public final class VectorRows {
  private VectorRows() {}

  /** Every row of {@code result}, in order. */
  public static List<Object> of(VectorResult result, RowShape shape) {
    List<Object> rows = new ArrayList<>(result.rowCount());
    for (int row = 0; row < result.rowCount(); row++) {
      rows.add(row(result, row, shape));
    }
    return rows;
  }

  /** The rows of result chunks, converted as they are consumed. */
  public static Iterator<Object> of(Iterator<VectorResult> chunks, RowShape shape) {
    return new Iterator<>() {
      private VectorResult chunk;
      private int row;

      @Override
      public boolean hasNext() {
        while (chunk == null || row >= chunk.rowCount()) {
          if (!chunks.hasNext()) {
            return false;
          }
          chunk = chunks.next();
          row = 0;
        }
        return true;
      }

      @Override
      public Object next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return row(chunk, row++, shape);
      }
    };
  }

  private static Object row(VectorResult result, int row, RowShape shape) {
    Object[] values = new Object[result.columnCount()];
    for (int c = 0; c < values.length; c++) {
      values[c] = value(result, row, c);
    }
    return shape == RowShape.SCALAR ? values[0] : shape == RowShape.LIST ? Arrays.asList(values) : values;
  }

  private static Object value(VectorResult result, int row, int column) {
    if (result.isNull(row, column)) {
      return null;
    }
    switch (result.type(column).type()) {
      case BIGINT:
        return result.integer(row, column);
      case INTEGER:
      case DATE:
        return (int) VectorResult.narrowed(result.integer(row, column), result.type(column).type());
      case SMALLINT:
        return (short) VectorResult.narrowed(result.integer(row, column), result.type(column).type());
      case TINYINT:
        return (byte) VectorResult.narrowed(result.integer(row, column), result.type(column).type());
      case DECIMAL:
        return result.decimal(row, column);
      case DOUBLE:
        return result.real(row, column);
      case FLOAT:
        return (float) result.real(row, column);
      case BOOLEAN:
        return result.bool(row, column);
      case STRING:
        return result.string(row, column);
      default:
        throw new IllegalStateException("the vectorized executor cannot return SQL type "
            + result.type(column).type());
    }
  }
}
