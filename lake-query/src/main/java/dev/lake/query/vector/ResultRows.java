package dev.lake.query.vector;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The final rows of a vectorized plan in the row runtime's representation (Calcite's: Long/Integer/Short/Byte,
 * BigDecimal at the column's scale, Double/Float, Integer days for DATE, String, Boolean), sorted and cut.
 */
final class ResultRows {
  private ResultRows() {}

  static List<Object[]> of(Batch batch, VectorPlan plan) {
    List<VectorPlan.Output> output = plan.output();
    List<Object[]> rows = new ArrayList<>(batch.size());
    Col[] columns = new Col[output.size()];
    for (int c = 0; c < columns.length; c++) {
      columns[c] = batch.column(c);
    }
    for (int i = 0; i < batch.size(); i++) {
      Object[] row = new Object[columns.length];
      for (int c = 0; c < columns.length; c++) {
        row[c] = value(columns[c], i, output.get(c));
      }
      rows.add(row);
    }
    if (!plan.sort().isEmpty()) {
      rows.sort(comparator(plan.sort()));
    }
    int from = (int) Math.min(rows.size(), plan.offset());
    int to = plan.fetch().map(f -> (int) Math.min(rows.size(), from + f)).orElse(rows.size());
    return new ArrayList<>(rows.subList(from, to));
  }

  static Object value(Col col, int i, VectorPlan.Output type) {
    if (col.isNull(i)) {
      return null;
    }
    switch (type.type()) {
      case BIGINT:
        return integer(col, i);
      case INTEGER:
      case DATE:
        return (int) integer(col, i);
      case SMALLINT:
        return (short) integer(col, i);
      case TINYINT:
        return (byte) integer(col, i);
      case DECIMAL:
        return col.kind == Kind.DOUBLE ? BigDecimal.valueOf(col.doubles[i]).setScale(type.scale(), RoundingMode.HALF_UP)
            : col.decimal(i).setScale(type.scale(), RoundingMode.HALF_UP);
      case DOUBLE:
        return col.asDouble(i);
      case FLOAT:
        return (float) col.asDouble(i);
      case BOOLEAN:
        return col.longs[i] == 1;
      case STRING:
        return new String(col.strings.bytes(i), StandardCharsets.UTF_8);
      default:
        throw new IllegalStateException("the vectorized executor cannot return SQL type " + type.type());
    }
  }

  private static long integer(Col col, int i) {
    if (col.kind == Kind.DOUBLE) {
      return (long) col.doubles[i];
    }
    if (col.isWide(i) || col.scale != 0) {
      BigDecimal value = col.decimal(i).setScale(0, RoundingMode.DOWN);
      try {
        return value.longValueExact();
      } catch (ArithmeticException e) {
        throw new dev.lake.query.model.InexactResultException("BIGINT overflow: " + value.toPlainString() + " is beyond"
            + " BIGINT's range (a SUM of BIGINT values fails rather than wrap; SUM(CAST(x AS DECIMAL(38, 0))) sums"
            + " exactly)");
      }
    }
    return col.longs[i];
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Comparator<Object[]> comparator(List<VectorPlan.SortKey> keys) {
    return (a, b) -> {
      for (VectorPlan.SortKey key : keys) {
        Comparable x = (Comparable) a[key.column()];
        Comparable y = (Comparable) b[key.column()];
        int c;
        if (x == null || y == null) {
          c = x == y ? 0 : (x == null) == key.nullsFirst() ? -1 : 1;
          if (c != 0) {
            return c;
          }
          continue;
        }
        c = x.compareTo(y);
        if (c != 0) {
          return key.descending() ? -c : c;
        }
      }
      return 0;
    };
  }
}
