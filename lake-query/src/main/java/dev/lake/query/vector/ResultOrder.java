package dev.lake.query.vector;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * ORDER BY over a vectorized result's columns: the row order as positions, sorted stably (equal keys keep their
 * order). Each key compares the values its result type gives (an INTEGER narrowed, a DECIMAL at its result scale
 * rounded HALF_UP, a FLOAT narrowed, strings as Java strings), so the order is the one the row runtime would give
 * those values; NULLs first or last as the key says, whatever its direction.
 */
final class ResultOrder {
  private ResultOrder() {}

  static int[] sorted(VectorResult result, List<VectorPlan.SortKey> keys) {
    int rows = result.rowCount();
    Comparator<Integer> order = null;
    for (VectorPlan.SortKey key : keys) {
      Comparator<Integer> next = key(result, key, rows);
      order = order == null ? next : order.thenComparing(next);
    }
    Integer[] positions = new Integer[rows];
    for (int i = 0; i < rows; i++) {
      positions[i] = i;
    }
    Arrays.sort(positions, order);
    int[] out = new int[rows];
    for (int i = 0; i < rows; i++) {
      out[i] = positions[i];
    }
    return out;
  }

  /** One key's comparison of two rows: NULL placement first, then the values in the key's direction. */
  private static Comparator<Integer> key(VectorResult result, VectorPlan.SortKey key, int rows) {
    int column = key.column();
    Col col = result.column(column);
    Values values = values(result, column, rows);
    return (a, b) -> {
      boolean x = col.isNull(a);
      boolean y = col.isNull(b);
      if (x || y) {
        return x == y ? 0 : x == key.nullsFirst() ? -1 : 1;
      }
      int c = values.compare(a, b);
      return key.descending() ? -c : c;
    };
  }

  @FunctionalInterface
  private interface Values {
    int compare(int a, int b);
  }

  /** The column's values as its result type gives them, compared by their natural order. */
  private static Values values(VectorResult result, int column, int rows) {
    Col col = result.column(column);
    VectorPlan.Output type = result.type(column);
    switch (type.type()) {
      case BIGINT:
      case INTEGER:
      case SMALLINT:
      case TINYINT:
      case DATE: {
        long[] v = new long[rows];
        for (int i = 0; i < rows; i++) {
          v[i] = col.isNull(i) ? 0 : narrow(VectorResult.integer(col, i), type.type());
        }
        return (a, b) -> Long.compare(v[a], v[b]);
      }
      case DECIMAL: {
        if (col.kind == Kind.LONG && col.wide == null && col.scale <= type.scale()) {
          // a rescale up keeps order and equality: the unscaled longs compare as the decimals do
          long[] v = col.longs;
          return (a, b) -> Long.compare(v[a], v[b]);
        }
        BigDecimal[] v = new BigDecimal[rows];
        for (int i = 0; i < rows; i++) {
          v[i] = col.isNull(i) ? null : VectorResult.decimal(col, i, type.scale());
        }
        return (a, b) -> v[a].compareTo(v[b]);
      }
      case DOUBLE: {
        double[] v = new double[rows];
        for (int i = 0; i < rows; i++) {
          v[i] = col.isNull(i) ? 0 : col.asDouble(i);
        }
        return (a, b) -> Double.compare(v[a], v[b]);
      }
      case FLOAT: {
        float[] v = new float[rows];
        for (int i = 0; i < rows; i++) {
          v[i] = col.isNull(i) ? 0 : (float) col.asDouble(i);
        }
        return (a, b) -> Float.compare(v[a], v[b]);
      }
      case BOOLEAN: {
        long[] v = col.longs;
        return (a, b) -> Boolean.compare(v[a] == 1, v[b] == 1);
      }
      case STRING: {
        String[] v = new String[rows];
        for (int i = 0; i < rows; i++) {
          v[i] = col.isNull(i) ? null : col.string(i);
        }
        return (a, b) -> v[a].compareTo(v[b]);
      }
      default:
        throw new IllegalStateException("the vectorized executor cannot sort SQL type " + type.type());
    }
  }

  private static long narrow(long value, ResultType type) {
    switch (type) {
      case INTEGER:
      case DATE:
        return (int) value;
      case SMALLINT:
        return (short) value;
      case TINYINT:
        return (byte) value;
      default:
        return value;
    }
  }
}
