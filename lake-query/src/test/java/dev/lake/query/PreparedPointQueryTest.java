package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.query.model.QueryRejectedException;
import dev.lake.query.model.TablePin;
import dev.lake.registry.TableRegistration;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * A prepared point query is planned once and its parameters are bound at execution into the Lance filter of its
 * pass-through scan (issue 22): executed with many different values — present, absent, NULL, of another Java type —
 * it answers what literal SQL answers and what the data says (computed here from the rows written, NULLs matching
 * nothing); values that do not fit the parameter's type are refused as before; a pinned older version answers from
 * that version.
 */
class PreparedPointQueryTest extends LakeTestSupport {
  private static final String[] WORDS = {"1-URGENT", "2-HIGH", "it's", "", "5-LOW"};
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("k", new ArrowType.Int(64, true)),
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("p", ArrowType.Utf8.INSTANCE),
      Field.nullable("amount", new ArrowType.Decimal(15, 2, 128)),
      Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));

  private final List<List<Object>> data = new ArrayList<>();
  private final Random random = new Random(22);
  private TableRegistration first;

  @Override
  void createTables() {
    first = createTable("r", SCHEMA, rows(0, 1_500));
    // a second fragment, so a filter is evaluated across files
    appendRows(first, SCHEMA, rows(1_500, 1_500));
  }

  private List<List<Object>> rows(int from, int count) {
    List<List<Object>> rows = new ArrayList<>();
    for (int n = from; n < from + count; n++) {
      List<Object> row = Arrays.asList((long) n,
          nullOr(() -> (long) random.nextInt(400) - 10),
          nullOr(() -> random.nextInt(1_000) - 500),
          nullOr(() -> WORDS[random.nextInt(WORDS.length)]),
          nullOr(() -> BigDecimal.valueOf(random.nextInt(2_000) - 1_000, 2)),
          nullOr(() -> LocalDate.of(1995, 1, 1).plusDays(random.nextInt(300))),
          nullOr(() -> LocalDateTime.of(2024, 3, 1, 12, 0).plusNanos(1_000L * random.nextInt(500))));
      rows.add(row);
    }
    data.addAll(rows);
    return rows;
  }

  private Object nullOr(java.util.function.Supplier<Object> value) {
    return random.nextInt(10) == 0 ? null : value.get();
  }

  @Test
  void preparedPointQueriesAnswerLikeLiteralSqlForManyValues() {
    long boundBefore = service.planCacheStats().bound();
    int bound = 0;
    for (int round = 0; round < 60; round++) {
      long key = random.nextInt(420) - 15;
      bound += check("SELECT id FROM r WHERE k = ?", List.of(key), "k = CAST(" + key + " AS BIGINT)",
          row -> Objects.equals(row.get(1), key));
      bound += check("SELECT id FROM r WHERE ? = k", List.of(key), "CAST(" + key + " AS BIGINT) = k",
          row -> Objects.equals(row.get(1), key));
      int integer = (int) key;
      bound += check("SELECT id FROM r WHERE k = ?", List.of(integer), "k = " + integer,
          row -> Objects.equals(row.get(1), key));
      String word = random.nextInt(6) == 0 ? "absent" : WORDS[random.nextInt(WORDS.length)];
      bound += check("SELECT id FROM r WHERE p = ?", List.of(word), "p = '" + word.replace("'", "''") + "'",
          row -> word.equals(row.get(3)));
      int low = random.nextInt(1_000) - 500;
      int high = low + random.nextInt(100);
      bound += check("SELECT id FROM r WHERE i >= ? AND i < ?", List.of(low, high),
          "i >= " + low + " AND i < " + high,
          row -> row.get(2) != null && (Integer) row.get(2) >= low && (Integer) row.get(2) < high);
      BigDecimal amount = BigDecimal.valueOf(random.nextInt(2_000) - 1_000, 2);
      bound += check("SELECT id FROM r WHERE amount = ?", List.of(amount),
          "amount = CAST('" + amount + "' AS DECIMAL(15, 2))",
          row -> row.get(4) != null && ((BigDecimal) row.get(4)).compareTo(amount) == 0);
      LocalDate day = LocalDate.of(1995, 1, 1).plusDays(random.nextInt(310));
      bound += check("SELECT id FROM r WHERE day = ? AND k > ?", List.of(day, 100L),
          "day = DATE '" + day + "' AND k > 100",
          row -> day.equals(row.get(5)) && row.get(1) != null && (Long) row.get(1) > 100);
      LocalDateTime at = LocalDateTime.of(2024, 3, 1, 12, 0).plusNanos(1_000L * random.nextInt(500));
      bound += check("SELECT id FROM r WHERE ts = ?", List.of(at), "ts = TIMESTAMP '"
          + at.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS")) + "'",
          row -> at.equals(row.get(6)));
    }
    assertThat(service.planCacheStats().bound() - boundBefore)
        .as("executions bound into the statement planned once").isEqualTo(bound).isGreaterThan(400);
  }

  @Test
  void nullAndOtherJavaTypesAnswerLikeLiteralSql() {
    check("SELECT id FROM r WHERE k = ?", Arrays.asList((Object) null), "k = CAST(NULL AS BIGINT)", row -> false);
    check("SELECT id FROM r WHERE p = ?", Arrays.asList((Object) null), "p = CAST(NULL AS VARCHAR)", row -> false);
    check("SELECT id FROM r WHERE k = ?", List.of(new BigDecimal("7")), "k = 7",
        row -> Long.valueOf(7).equals(row.get(1)));
    check("SELECT id FROM r WHERE k = ?", List.of("12"), "k = 12", row -> Long.valueOf(12).equals(row.get(1)));
    check("SELECT id FROM r WHERE amount = ?", List.of(5L), "amount = 5",
        row -> row.get(4) != null && ((BigDecimal) row.get(4)).compareTo(BigDecimal.valueOf(5)) == 0);
    check("SELECT id FROM r WHERE k = ?", List.of(Long.MAX_VALUE), "k = " + Long.MAX_VALUE, row -> false);
    check("SELECT id FROM r WHERE k = ?", List.of(Long.MIN_VALUE), "k = " + Long.MIN_VALUE, row -> false);
  }

  @Test
  void valuesThatDoNotFitTheParameterAreRefusedAsBefore() {
    String byKey = "SELECT id FROM r WHERE k = ?";
    run(byKey, List.of(1L)); // the statement is planned once and cached with its parameterized scan
    assertRefused(byKey, List.of("abc"), "parameter 1 expects BIGINT");
    assertRefused(byKey, List.of(1.5), "parameter 1 expects BIGINT");
    assertRefused(byKey, List.of(LocalDate.of(2024, 1, 1)), "parameter 1 expects BIGINT");
    assertRefused("SELECT id FROM r WHERE i = ?", List.of(3_000_000_000L), "parameter 1 expects INTEGER");
    assertRefused("SELECT id FROM r WHERE amount = ?", List.of(new BigDecimal("1.234")),
        "parameter 1 expects DECIMAL(15, 2)");
    assertRefused("SELECT id FROM r WHERE amount = ?", List.of(new BigDecimal("1e20")),
        "parameter 1 expects DECIMAL(15, 2)");
    assertRefused("SELECT id FROM r WHERE p = ?", List.of(5L), "parameter 1 expects VARCHAR");
    assertRefused("SELECT id FROM r WHERE day = ? AND k > ?", List.of(LocalDate.of(1995, 1, 1)),
        "the statement has 2 parameter(s) but 1 value(s) were bound");
  }

  @Test
  void aLimitKeepsItsRowsAndTheirValues() {
    for (String word : WORDS) {
      List<List<Object>> rows = run("SELECT id, p FROM r WHERE p = ? LIMIT 10", List.of(word));
      long matching = data.stream().filter(row -> word.equals(row.get(3))).count();
      assertThat(rows).hasSize((int) Math.min(10, matching));
      assertThat(rows).allSatisfy(row -> assertThat(row.get(1)).isEqualTo(word));
      Set<Object> ids = new HashSet<>();
      rows.forEach(row -> ids.add(row.get(0)));
      assertThat(ids).hasSize(rows.size());
    }
  }

  @Test
  void aPinnedOlderVersionAnswersFromThatVersion() {
    Map<String, TablePin> older = Map.of("r", TablePin.of(first));
    PreparedQuery current = service.prepare("SELECT id FROM r WHERE k = ?");
    for (int round = 0; round < 20; round++) {
      long key = random.nextInt(400) - 10;
      Set<Object> atFirst = ids(execute("SELECT id FROM r WHERE k = ?", older, List.of(key)).rows());
      Set<Object> now = ids(execute("SELECT id FROM r WHERE k = ?", current.pins(), List.of(key)).rows());
      assertThat(atFirst).isEqualTo(expected(data.subList(0, 1_500), row -> Objects.equals(row.get(1), key)));
      assertThat(now).isEqualTo(expected(data, row -> Objects.equals(row.get(1), key)));
    }
  }

  /** Runs the prepared statement and its literal form; both must answer the rows {@code matches} picks. */
  private int check(String sql, List<Object> values, String literalCondition, Predicate<List<Object>> matches) {
    long before = service.planCacheStats().bound();
    Set<Object> prepared = ids(run(sql, values));
    String literal = sql.substring(0, sql.indexOf(" WHERE ") + 7) + literalCondition;
    Set<Object> expected = expected(data, matches);
    assertThat(prepared).as("%s with %s", sql, values).isEqualTo(expected);
    assertThat(ids(query(literal).rows())).as(literal).isEqualTo(expected);
    // the literal form binds too when it is auto-parameterized (query.auto-parameterize)
    return (int) (service.planCacheStats().bound() - before);
  }

  private List<List<Object>> run(String sql, List<Object> values) {
    PreparedQuery prepared = service.prepare(sql);
    return execute(sql, prepared.pins(), values).rows();
  }

  private void assertRefused(String sql, List<Object> values, String message) {
    assertThatThrownBy(() -> run(sql, values)).isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining(message);
  }

  private static Set<Object> expected(List<List<Object>> rows, Predicate<List<Object>> matches) {
    Set<Object> ids = new HashSet<>();
    rows.stream().filter(matches).forEach(row -> ids.add(row.get(0)));
    return ids;
  }

  private static Set<Object> ids(List<List<Object>> rows) {
    Set<Object> ids = new HashSet<>();
    rows.forEach(row -> ids.add(row.get(0)));
    assertThat(ids).as("distinct ids").hasSize(rows.size());
    return ids;
  }
}
