package dev.lake.query;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A random single-table aggregate over {@code items} and its exact reference answer: a WHERE of one or two random
 * predicates (three-valued logic, NULLs included), zero to two group keys and three to six aggregates, computed
 * here with BigDecimal (decimals exact; AVG of decimals rounded half up to 6 places) and doubles.
 */
record RandomQuery(List<String> keys, Predicate where, List<String> aggregates) {
  /** A predicate in SQL and in Java (null = unknown). */
  record Predicate(String sql, Function<VectorizedExecutorTest.Item, Boolean> test) {}

  private static final Map<String, Function<List<VectorizedExecutorTest.Item>, Object>> AGGREGATES =
      new LinkedHashMap<>();
  private static final List<String> KEYS = List.of("k", "s", "d");

  static {
    AGGREGATES.put("COUNT(*)", rows -> (long) rows.size());
    AGGREGATES.put("COUNT(price)", rows -> rows.stream().filter(r -> r.price() != null).count());
    AGGREGATES.put("SUM(price)", rows -> decimals(rows, VectorizedExecutorTest.Item::price).stream()
        .reduce(BigDecimal::add).orElse(null));
    AGGREGATES.put("SUM(qty)", rows -> rows.stream().filter(r -> r.qty() != null).map(r -> (long) r.qty())
        .reduce(Long::sum).orElse(null));
    AGGREGATES.put("AVG(price)", rows -> {
      List<BigDecimal> values = decimals(rows, VectorizedExecutorTest.Item::price);
      return values.isEmpty() ? null : values.stream().reduce(BigDecimal::add).get()
          .divide(BigDecimal.valueOf(values.size()), 6, RoundingMode.DOWN);
    });
    AGGREGATES.put("MIN(d)", rows -> rows.stream().map(VectorizedExecutorTest.Item::d).filter(Objects::nonNull)
        .min(Comparator.naturalOrder()).orElse(null));
    AGGREGATES.put("MAX(price)", rows -> decimals(rows, VectorizedExecutorTest.Item::price).stream()
        .max(Comparator.naturalOrder()).orElse(null));
    AGGREGATES.put("SUM(price * qty)", rows -> rows.stream().filter(r -> r.price() != null && r.qty() != null)
        .map(r -> r.price().multiply(BigDecimal.valueOf(r.qty()))).reduce(BigDecimal::add).orElse(null));
    AGGREGATES.put("SUM(ratio)", rows -> rows.stream().map(VectorizedExecutorTest.Item::ratio)
        .filter(Objects::nonNull).reduce(Double::sum).orElse(null));
    AGGREGATES.put("AVG(ratio)", rows -> {
      List<Double> values = rows.stream().map(VectorizedExecutorTest.Item::ratio).filter(Objects::nonNull).toList();
      return values.isEmpty() ? null : values.stream().reduce(Double::sum).get() / values.size();
    });
    AGGREGATES.put("MIN(ratio)", rows -> rows.stream().map(VectorizedExecutorTest.Item::ratio)
        .filter(Objects::nonNull).min(Comparator.naturalOrder()).orElse(null));
    AGGREGATES.put("MAX(qty)", rows -> rows.stream().map(VectorizedExecutorTest.Item::qty).filter(Objects::nonNull)
        .max(Comparator.naturalOrder()).orElse(null));
    AGGREGATES.put("COUNT(d)", rows -> rows.stream().filter(r -> r.d() != null).count());
  }

  static RandomQuery next(Random random) {
    List<String> keys = new ArrayList<>(KEYS);
    java.util.Collections.shuffle(keys, random);
    keys = new ArrayList<>(keys.subList(0, random.nextInt(3)));
    List<String> names = new ArrayList<>(AGGREGATES.keySet());
    java.util.Collections.shuffle(names, random);
    List<String> aggregates = new ArrayList<>(names.subList(0, 3 + random.nextInt(4)));
    Predicate where = predicate(random);
    if (random.nextInt(3) > 0) {
      Predicate other = predicate(random);
      while (column(other).equals(column(where))) {
        // two conditions on one column may contradict each other, and Calcite then reads no table at all
        other = predicate(random);
      }
      Predicate second = other;
      boolean and = random.nextBoolean();
      Predicate first = where;
      where = new Predicate("(" + first.sql() + (and ? " AND " : " OR ") + second.sql() + ")",
          item -> and ? and(first.test().apply(item), second.test().apply(item))
              : or(first.test().apply(item), second.test().apply(item)));
    }
    if (random.nextInt(5) == 0) {
      Predicate inner = where;
      where = new Predicate("NOT " + inner.sql(), item -> {
        Boolean b = inner.test().apply(item);
        return b == null ? null : !b;
      });
    }
    return new RandomQuery(keys, where, aggregates);
  }

  String sql() {
    List<String> select = new ArrayList<>(keys);
    for (int a = 0; a < aggregates.size(); a++) {
      select.add(aggregates.get(a) + " AS a" + a);
    }
    List<String> quoted = keys.stream().map(k -> "\"" + k + "\"").toList();
    select.replaceAll(s -> keys.contains(s) ? "\"" + s + "\"" : s);
    return "SELECT " + String.join(", ", select) + " FROM items WHERE " + where.sql()
        + (keys.isEmpty() ? "" : " GROUP BY " + String.join(", ", quoted));
  }

  /** The answer by group key (key values as the test's result rows hold them). */
  Map<List<Object>, List<Object>> reference(List<VectorizedExecutorTest.Item> items) {
    Map<List<Object>, List<VectorizedExecutorTest.Item>> groups = items.stream()
        .filter(item -> Boolean.TRUE.equals(where.test().apply(item)))
        .collect(Collectors.groupingBy(this::key, LinkedHashMap::new, Collectors.toList()));
    if (keys.isEmpty() && groups.isEmpty()) {
      groups.put(List.of(), List.of());
    }
    Map<List<Object>, List<Object>> answer = new LinkedHashMap<>();
    groups.forEach((key, rows) -> {
      List<Object> values = new ArrayList<>();
      for (String aggregate : aggregates) {
        values.add(AGGREGATES.get(aggregate).apply(rows));
      }
      answer.put(key, values);
    });
    return answer;
  }

  private List<Object> key(VectorizedExecutorTest.Item item) {
    List<Object> key = new ArrayList<>();
    for (String name : keys) {
      key.add(name.equals("k") ? item.k() : name.equals("s") ? item.s() : item.d());
    }
    return key;
  }

  private static List<BigDecimal> decimals(List<VectorizedExecutorTest.Item> rows,
      Function<VectorizedExecutorTest.Item, BigDecimal> column) {
    return rows.stream().map(column).filter(Objects::nonNull).toList();
  }

  /** The column a predicate tests first. */
  private static String column(Predicate predicate) {
    return predicate.sql().split(" ")[0];
  }

  private static Predicate predicate(Random random) {
    switch (random.nextInt(12)) {
      case 0: {
        int c = random.nextInt(60);
        return new Predicate("qty > " + c, item -> item.qty() == null ? null : item.qty() > c);
      }
      case 1: {
        BigDecimal c = BigDecimal.valueOf(random.nextInt(200_000) - 20_000, 2);
        return new Predicate("price <= " + c.toPlainString(),
            item -> item.price() == null ? null : item.price().compareTo(c) <= 0);
      }
      case 2: {
        LocalDate c = LocalDate.of(1994, 1, 1).plusDays(random.nextInt(2_000));
        return new Predicate("\"d\" < DATE '" + c + "'", item -> item.d() == null ? null : item.d().isBefore(c));
      }
      case 3: {
        String c = List.of("a", "b", "ü", "").get(random.nextInt(4));
        return new Predicate("s = '" + c + "'", item -> item.s() == null ? null : item.s().equals(c));
      }
      case 4: {
        double c = random.nextInt(100) - 10 + 0.5;
        return new Predicate("ratio >= " + c, item -> item.ratio() == null ? null : item.ratio() >= c);
      }
      case 5:
        return new Predicate("k IS NULL", item -> item.k() == null);
      case 6:
        return new Predicate("price IS NOT NULL", item -> item.price() != null);
      case 7: {
        BigDecimal c = BigDecimal.valueOf(random.nextInt(50_000));
        return new Predicate("price * qty > " + c.toPlainString(), item -> item.price() == null || item.qty() == null
            ? null : item.price().multiply(BigDecimal.valueOf(item.qty())).compareTo(c) > 0);
      }
      case 8: {
        LocalDate from = LocalDate.of(1994, 1, 1).plusDays(random.nextInt(1_500));
        LocalDate to = from.plusDays(random.nextInt(400));
        return new Predicate("\"d\" BETWEEN DATE '" + from + "' AND DATE '" + to + "'", item -> item.d() == null
            ? null : !item.d().isBefore(from) && !item.d().isAfter(to));
      }
      case 9: {
        // exclusive bounds of one column: merged into one range test
        int low = random.nextInt(40);
        int high = low + 2 + random.nextInt(25);
        return new Predicate("qty > " + low + " AND qty < " + high, item -> item.qty() == null ? null
            : item.qty() > low && item.qty() < high);
      }
      case 10: {
        // a decimal range whose constants have a smaller scale than the column
        BigDecimal low = BigDecimal.valueOf(random.nextInt(20_000) - 2_000, 1);
        BigDecimal high = low.add(BigDecimal.valueOf(random.nextInt(10_000), 1));
        return new Predicate("price BETWEEN " + low.toPlainString() + " AND " + high.toPlainString(),
            item -> item.price() == null ? null : item.price().compareTo(low) >= 0 && item.price().compareTo(high) <= 0);
      }
      default:
        return new Predicate("k IN (1, 3)", item -> item.k() == null ? null : item.k() == 1 || item.k() == 3);
    }
  }

  private static Boolean and(Boolean a, Boolean b) {
    if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
      return false;
    }
    return a == null || b == null ? null : true;
  }

  private static Boolean or(Boolean a, Boolean b) {
    if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
      return true;
    }
    return a == null || b == null ? null : false;
  }
}
