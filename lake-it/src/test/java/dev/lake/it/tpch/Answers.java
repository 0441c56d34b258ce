package dev.lake.it.tpch;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Compares two engines' answers to one query: as multisets of rows, ordered only by the query's ORDER BY keys (rows
 * whose keys tie may come in any order). Integers, decimals (by value, any scale), strings and dates must be equal;
 * two doubles within 1e-9 relative. A decimal answered where the reference has a double (DuckDB answers divisions
 * and averages of decimals with doubles) must equal the reference correctly rounded (half up) at the decimal's
 * declared scale — no tolerance beyond the reference's own: where the double lies within 1e-12 relative of a
 * rounding boundary (or the scale is beyond a double's digits), every rounding of a value that near is accepted. A truncated result fails whenever the dropped digits reach half
 * a unit.
 */
public final class Answers {
  private static final double RELATIVE = 1e-9;
  /** How far a double reference may be from the exact value it stands for (relative). */
  private static final double REFERENCE_ERROR = 1e-12;

  private Answers() {}

  /** Why {@code actual} is not the same answer as {@code expected}, or empty when it is. */
  public static Optional<String> difference(List<List<Object>> actual, List<List<Object>> expected,
      List<Integer> orderBy) {
    if (actual.size() != expected.size()) {
      return Optional.of("row counts differ: " + actual.size() + " vs " + expected.size() + " expected");
    }
    for (int i = 0; i < actual.size(); i++) {
      if (actual.get(i).size() != expected.get(i).size()) {
        return Optional.of("column counts differ in row " + i);
      }
      for (int key : orderBy) {
        if (!same(actual.get(i).get(key), expected.get(i).get(key))) {
          return Optional.of("ORDER BY column " + key + " differs in row " + i + ": " + actual.get(i) + " vs "
              + expected.get(i) + " expected");
        }
      }
    }
    List<List<Object>> left = canonical(actual, orderBy);
    List<List<Object>> right = canonical(expected, orderBy);
    for (int i = 0; i < left.size(); i++) {
      for (int c = 0; c < left.get(i).size(); c++) {
        if (!same(left.get(i).get(c), right.get(i).get(c))) {
          return Optional.of("column " + c + " differs: " + left.get(i) + " vs " + right.get(i) + " expected");
        }
      }
    }
    return Optional.empty();
  }

  /** Rows in ORDER BY order (as given), ties sorted by their text, so runs of equal keys compare as multisets. */
  private static List<List<Object>> canonical(List<List<Object>> rows, List<Integer> orderBy) {
    List<List<Object>> sorted = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      List<Object> row = new ArrayList<>();
      row.add(i);
      rows.get(i).forEach(value -> row.add(normalize(value)));
      sorted.add(row);
    }
    Comparator<List<Object>> byKeys = (a, b) -> orderBy.isEmpty() ? 0 : runStart(rows, (Integer) a.get(0), orderBy)
        - runStart(rows, (Integer) b.get(0), orderBy);
    sorted.sort(byKeys.thenComparing(row -> text(row.subList(1, row.size()))));
    List<List<Object>> result = new ArrayList<>();
    sorted.forEach(row -> result.add(row.subList(1, row.size())));
    return result;
  }

  /** The first row of the run of rows with the same ORDER BY keys as row {@code index}. */
  private static int runStart(List<List<Object>> rows, int index, List<Integer> orderBy) {
    int start = index;
    while (start > 0 && sameKeys(rows.get(start - 1), rows.get(index), orderBy)) {
      start--;
    }
    return start;
  }

  private static boolean sameKeys(List<Object> a, List<Object> b, List<Integer> orderBy) {
    for (int key : orderBy) {
      if (!same(a.get(key), b.get(key))) {
        return false;
      }
    }
    return true;
  }

  private static String text(List<Object> row) {
    StringBuilder text = new StringBuilder();
    for (Object value : row) {
      if (value instanceof Double || value instanceof BigDecimal) {
        text.append(String.format("%.2f", ((Number) value).doubleValue()));
      } else {
        text.append(value);
      }
      text.append('|');
    }
    return text.toString();
  }

  static Object normalize(Object value) {
    if (value instanceof java.sql.Date) {
      return ((java.sql.Date) value).toLocalDate();
    }
    if (value instanceof Float) {
      return ((Float) value).doubleValue();
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    return value;
  }

  static boolean same(Object a, Object b) {
    Object x = normalize(a);
    Object y = normalize(b);
    if (x == null || y == null) {
      return x == null && y == null;
    }
    if (x instanceof Number && y instanceof Number) {
      return sameNumber((Number) x, (Number) y);
    }
    if (x instanceof LocalDate || y instanceof LocalDate) {
      return String.valueOf(x).equals(String.valueOf(y));
    }
    return x.equals(y);
  }

  private static boolean sameNumber(Number x, Number y) {
    boolean xExact = !(x instanceof Double);
    boolean yExact = !(y instanceof Double);
    if (xExact && yExact) {
      return exact(x).compareTo(exact(y)) == 0;
    }
    if (x instanceof BigDecimal && !yExact || y instanceof BigDecimal && !xExact) {
      BigDecimal decimal = (BigDecimal) (xExact ? x : y);
      return correctlyRounded(decimal, (xExact ? y : x).doubleValue());
    }
    double a = x.doubleValue();
    double b = y.doubleValue();
    return Math.abs(a - b) <= RELATIVE * Math.max(Math.abs(a), Math.abs(b));
  }

  /**
   * Whether {@code decimal} is {@code reference} rounded half up at the decimal's scale: one of the roundings of the
   * values within the reference's own error (usually exactly one).
   */
  static boolean correctlyRounded(BigDecimal decimal, double reference) {
    if (!Double.isFinite(reference)) {
      return false;
    }
    int scale = decimal.scale();
    double error = Math.abs(reference) * REFERENCE_ERROR;
    BigDecimal low = new BigDecimal(reference - error).setScale(scale, RoundingMode.HALF_UP);
    BigDecimal high = new BigDecimal(reference + error).setScale(scale, RoundingMode.HALF_UP);
    return decimal.compareTo(low) >= 0 && decimal.compareTo(high) <= 0;
  }

  private static BigDecimal exact(Number number) {
    if (number instanceof BigDecimal) {
      return (BigDecimal) number;
    }
    if (number instanceof BigInteger) {
      return new BigDecimal((BigInteger) number);
    }
    return BigDecimal.valueOf(number.longValue());
  }
}
