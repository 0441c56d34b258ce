package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A scan of stored columns streams Lance's batches unchanged (docs/design.md "Stored columns pass through"): units,
 * zones and decimals survive, and filters are translated into Lance's dialect so they select exactly the right rows.
 */
class PassThroughTest extends LakeTestSupport {
  private static final ArrowType MICROS = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
  private static final ArrowType MICROS_UTC = new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
  private static final ArrowType MICROS_PARIS = new ArrowType.Timestamp(TimeUnit.MICROSECOND, "Europe/Paris");
  private static final ArrowType TIME_MICROS = new ArrowType.Time(TimeUnit.MICROSECOND, 64);
  private static final ArrowType DECIMAL_38_10 = new ArrowType.Decimal(38, 10, 128);
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("ts", MICROS),
      Field.nullable("tsz", MICROS_UTC),
      Field.nullable("tsp", MICROS_PARIS),
      Field.nullable("tm", TIME_MICROS),
      Field.nullable("d", DECIMAL_38_10),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("ls", ArrowType.LargeUtf8.INSTANCE),
      Field.nullable("dt", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("b", ArrowType.Bool.INSTANCE),
      Field.nullable("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("i32", new ArrowType.Int(32, true)),
      Field.nullable("Mixed Case", new ArrowType.Int(32, true))));

  private static final LocalDateTime T0 = LocalDateTime.of(2024, 1, 1, 0, 0, 0);
  private static final String[] STRINGS = {"alpha", "it's", "", null, "back\\slash", "50%off", "x_y", "béta"};

  @Override
  void createTables() {
    List<List<Object>> rows = new java.util.ArrayList<>();
    for (int i = 0; i < STRINGS.length; i++) {
      LocalDateTime at = T0.plusSeconds(i).plusNanos(i * 1_000L);
      rows.add(Rows.row((long) i, at, at.toInstant(java.time.ZoneOffset.UTC), at.toInstant(java.time.ZoneOffset.UTC),
          LocalTime.of(1, 0).plusSeconds(i).plusNanos(i * 1_000L),
          new BigDecimal("12345678901234567890.1234567890").add(BigDecimal.valueOf(i)),
          STRINGS[i], "L" + i, LocalDate.of(2024, 1, 1).plusDays(i), i % 2 == 1, i * 1.5, i * 10, i));
    }
    createTable("typed", SCHEMA, rows);
  }

  @Test
  void passThroughKeepsMicrosecondsZonesDecimalsAndEmptyStrings() {
    Result result = query("SELECT id, ts, tsz, tsp, tm, d, s, ls FROM typed WHERE id IN (1, 2, 3)");
    assertThat(explain("SELECT id, ts, tsz, tsp, tm, d, s, ls FROM typed WHERE id IN (1, 2, 3)"))
        .startsWith("pass-through");
    Schema schema = result.schema();
    assertThat(schema.findField("ts").getType()).isEqualTo(MICROS);
    assertThat(schema.findField("tsz").getType()).isEqualTo(MICROS_UTC);
    assertThat(schema.findField("tsp").getType()).isEqualTo(MICROS_PARIS);
    assertThat(schema.findField("tm").getType()).isEqualTo(TIME_MICROS);
    assertThat(schema.findField("d").getType()).isEqualTo(DECIMAL_38_10);
    assertThat(schema.findField("ls").getType()).as("large strings come back as stored")
        .isEqualTo(ArrowType.LargeUtf8.INSTANCE);
    assertThat(result.rows()).hasSize(3);
    List<Object> one = result.rows().stream().filter(r -> r.get(0).equals(1L)).findFirst().orElseThrow();
    assertThat(one.get(1)).isEqualTo(LocalDateTime.of(2024, 1, 1, 0, 0, 1, 1_000));
    Instant instant = Instant.parse("2024-01-01T00:00:01.000001Z");
    long micros = instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    assertThat(one.get(2)).isEqualTo(micros);
    assertThat(one.get(3)).isEqualTo(micros);
    assertThat(one.get(4)).isEqualTo(LocalTime.of(1, 0, 1, 1_000).toNanoOfDay() / 1_000);
    assertThat(one.get(5)).isEqualTo(new BigDecimal("12345678901234567891.1234567890"));
    assertThat(result.column(6)).containsExactlyInAnyOrder("it's", "", null);
    assertThat(one.get(7)).isEqualTo("L1");
  }

  @Test
  void aliasesRenameColumnsWithoutChangingTypes() {
    Result result = query("SELECT ts AS \"When\", id AS key FROM typed WHERE id = 0");
    assertThat(result.schema().getFields()).extracting(Field::getName).containsExactly("When", "key");
    assertThat(result.schema().getFields().get(0).getType()).isEqualTo(MICROS);
    assertThat(result.rows()).containsExactly(List.of(T0, 0L));
  }

  @Test
  void limitWithoutOrderIsPushedIntoTheScan() {
    String sql = "SELECT id FROM typed LIMIT 3";
    assertThat(explain(sql)).startsWith("pass-through").contains("limit=[3]");
    assertThat(query(sql).rows()).hasSize(3);
  }

  @Test
  void selectStarOfAllColumnsPassesThrough() {
    assertThat(explain("SELECT * FROM typed")).startsWith("pass-through");
    assertThat(query("SELECT * FROM lake.main.typed").rows()).hasSize(STRINGS.length);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "id IN (1, 3, 5)|1,3,5",
      "id NOT IN (1, 3, 5)|0,2,4,6,7",
      "id BETWEEN 2 AND 4|2,3,4",
      "id NOT BETWEEN 2 AND 6|0,1,7",
      "s = 'it''s'|1",
      "s = ''|2",
      "s IS NULL|3",
      "s IS NOT NULL AND id < 3|0,1,2",
      "s = 'back\\slash'|4",
      "s LIKE 'al%'|0",
      "s LIKE '50\\%off' ESCAPE '\\'|5",
      "s LIKE 'x!_y' ESCAPE '!'|6",
      "s LIKE 'x_y'|6",
      "s LIKE '%\\%'|4",
      "s NOT LIKE '%a%'|1,2,5,6",
      "s = 'béta'|7",
      "ls = 'L2'|2",
      "dt = DATE '2024-01-03'|2",
      "dt >= DATE '2024-01-07'|6,7",
      "ts > TIMESTAMP '2024-01-01 00:00:05'|5,6,7",
      "ts = TIMESTAMP '2024-01-01 00:00:02.000002'|2",
      "tsz < TIMESTAMP WITH LOCAL TIME ZONE '2024-01-01 00:00:01'|0",
      "d > 12345678901234567895.5|6,7",
      "d = 12345678901234567892.1234567890|2",
      "b|1,3,5,7",
      "NOT b|0,2,4,6",
      "b = FALSE AND id > 4|6",
      "f > 7.4|5,6,7",
      "f = 3|2",
      "i32 > 5000000000|''",
      "i32 < 5000000000 AND i32 >= 60|6,7",
      "i32 = 20.0|2",
      "i32 = 20.5|''",
      "i32 > 2.5E1|3,4,5,6,7",
      "\"Mixed Case\" = 4|4",
      "id = 1 OR (id = 2 AND s = '')|1,2",
      "NOT (id < 6)|6,7",
      "id <> 0 AND id <> 7 AND id > 4|5,6",
  })
  void filterIsPushedIntoLanceAndSelectsTheRightRows(String condition, String expectedIds) {
    String sql = "SELECT id FROM typed WHERE " + condition;
    assertThat(explain(sql)).as("plan of %s", sql).startsWith("pass-through");
    List<Long> expected = expectedIds.isEmpty() ? List.of()
        : java.util.Arrays.stream(expectedIds.split(",")).map(Long::valueOf).toList();
    assertThat(query(sql).column(0)).as(sql).containsExactlyInAnyOrderElementsOf(expected);
  }

  /**
   * Filters a Lance scan cannot evaluate run in Calcite's runtime (exact to the microsecond: 01:00:03.000003 is not
   * 01:00:03) or, when Lance's SQL engine evaluates them like Calcite, there (the whole statement is pushed down).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "tm = TIME '01:00:03'||calcite",
      "tm = TIME '01:00:03.000003'|3|calcite",
      "tm > TIME '01:00:05'|5,6,7|calcite",
      "tsp >= TIMESTAMP WITH LOCAL TIME ZONE '2024-01-01 00:00:06'|6,7|calcite",
      "UPPER(s) = 'ALPHA'|0|lance-sql",
      "id + 1 = 3|2|calcite", // integer arithmetic: Lance's SQL engine would wrap it
      "CHAR_LENGTH(s) = 0|2|calcite",
  })
  void filterLanceScanCannotEvaluateRunsElsewhereWithTheSameRows(String condition, String expectedIds, String path) {
    String sql = "SELECT id FROM typed WHERE " + condition;
    assertThat(explain(sql)).as("plan of %s", sql).startsWith(path);
    List<Long> expected = expectedIds == null || expectedIds.isEmpty() ? List.of()
        : java.util.Arrays.stream(expectedIds.split(",")).map(Long::valueOf).toList();
    assertThat(query(sql).column(0)).as(sql).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void partlyTranslatableFilterPushesItsTranslatablePart() {
    String sql = "SELECT id FROM typed WHERE id > 2 AND CHAR_LENGTH(s) > 3";
    String plan = explain(sql);
    assertThat(plan).startsWith("calcite").contains("filter=[(`id` > 2)]");
    assertThat(query(sql).column(0)).containsExactlyInAnyOrder(4L, 5L, 7L);
  }

  @Test
  void calcitePathKeepsTheStoredTypeOfStoredColumns() {
    Result result = query("SELECT ts, tsz, d FROM typed ORDER BY id DESC LIMIT 2");
    assertThat(result.schema().getFields()).extracting(Field::getType)
        .containsExactly(MICROS, MICROS_UTC, DECIMAL_38_10);
    // Calcite's row runtime keeps the microseconds of the rows it sorts (issue 21).
    assertThat(result.rows().get(0).get(0)).isEqualTo(LocalDateTime.of(2024, 1, 1, 0, 0, 7, 7_000));
    assertThat(result.rows().get(0).get(2)).isEqualTo(new BigDecimal("12345678901234567897.1234567890"));
  }

  private String explain(String sql) {
    Result result = query("EXPLAIN PLAN FOR " + sql);
    assertThat(result.schema().getFields()).extracting(Field::getName).containsExactly("plan");
    return String.join("\n", result.column(0).stream().map(String::valueOf).toList());
  }
}
