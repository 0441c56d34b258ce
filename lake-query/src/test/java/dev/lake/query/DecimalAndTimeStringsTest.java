package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.plan.SubtreeExecutor;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * DECIMAL, TIME and TIMESTAMP values become text the way they are (docs/api.md, "Exactness"): a decimal keeps its
 * leading zero and is never written with an exponent, a time or timestamp keeps the fractional digits of its
 * precision — for literals folded at planning time and for columns on every executor. A CAST of a timestamp to TIME
 * holds exactly what the precision of its type keeps.
 */
class DecimalAndTimeStringsTest extends LakeTestSupport {
  private static final Schema P = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("m", new ArrowType.Decimal(9, 2, 128)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      Field.nullable("t", new ArrowType.Time(TimeUnit.MICROSECOND, 64))));
  private static final ArrowType TIME_MICROS = new ArrowType.Time(TimeUnit.MICROSECOND, 64);
  private static final ArrowType TIME_MILLIS = new ArrowType.Time(TimeUnit.MILLISECOND, 32);

  /** The same catalog under each executor: the planner's choice, Calcite's runtime only, vectorized where it can. */
  private final Map<String, QueryService> services = new LinkedHashMap<>();

  @Override
  void createTables() {
    createTable("p", P, List.of(
        row(1L, new BigDecimal("12345.67"), LocalDateTime.of(2020, 1, 1, 0, 0, 0, 123_456_000),
            LocalTime.of(12, 34, 56, 123_456_000)),
        row(2L, new BigDecimal("-0.01"), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
            LocalTime.of(0, 0, 0, 2_000)),
        row(3L, new BigDecimal("0.00"), LocalDateTime.of(2020, 1, 1, 0, 0, 0, 123_455_000),
            LocalTime.of(0, 0, 0, 1_000)),
        row(4L, null, null, null)));
    services.put("auto", service);
    services.put("calcite", new QueryService(catalog, engine,
        QueryOptions.defaults().withExecutor(SubtreeExecutor.CALCITE)));
    services.put("vectorized", new QueryService(catalog, engine,
        QueryOptions.defaults().withExecutor(SubtreeExecutor.VECTORIZED)));
  }

  @AfterAll
  void closeServices() {
    services.values().forEach(QueryService::close);
  }

  /** {@code sql}'s rows under every executor, which must agree; the result of the first. */
  private Result everywhere(String sql) {
    Result first = null;
    for (Map.Entry<String, QueryService> entry : services.entrySet()) {
      QueryService target = entry.getValue();
      Result result = collect(target.execute(sql, target.prepare(sql).pins(), List.of(), allocator));
      if (first == null) {
        first = result;
      } else {
        assertThat(result.rows()).as(entry.getKey() + ": " + sql).isEqualTo(first.rows());
        assertThat(result.schema()).as(entry.getKey() + ": " + sql).isEqualTo(first.schema());
      }
    }
    return first;
  }

  @Test
  void decimalsBecomeStringsWithTheirLeadingZeroAndNoExponent() {
    // Literals: folded at planning time or computed at run time, the same text.
    assertThat(everywhere("SELECT CAST(0.5 AS VARCHAR), CAST(-0.5 AS VARCHAR),"
        + " CAST(CAST(0.05 AS DECIMAL(5,3)) AS VARCHAR), 'x' || -0.01, CAST(-0.01 AS CHAR(6)),"
        + " CAST(CAST(0.0000000001 AS DECIMAL(20,10)) AS VARCHAR),"
        + " CAST(CAST('-0.0000000000000000000000000000000000001' AS DECIMAL(38,37)) AS VARCHAR),"
        + " CAST(CAST(-0.01 AS DECIMAL(9,2)) * CAST(-0.01 AS DECIMAL(9,2)) * CAST(-0.01 AS DECIMAL(9,2))"
        + " * CAST(-0.01 AS DECIMAL(9,2)) * CAST(-0.01 AS DECIMAL(9,2)) AS VARCHAR),"
        + " CAST(CAST(1 AS DECIMAL(10,2)) / 3 AS VARCHAR), CAST(CAST(100 AS DECIMAL(5,0)) AS VARCHAR)").rows())
        .containsExactly(List.of("0.5", "-0.5", "0.050", "x-0.01", "-0.01 ", "0.0000000001",
            "-0.0000000000000000000000000000000000001", "-0.0000000001", "0.3333333333333", "100"));
    // Columns, whichever executor reads them.
    String fifth = new BigDecimal("12345.67").pow(5).toPlainString();
    assertThat(everywhere("SELECT CAST(m AS VARCHAR), 'x' || m, CAST(m AS CHAR(10)), CAST(m * m * m * m * m AS"
        + " VARCHAR), CAST(m / 3 AS VARCHAR) FROM p ORDER BY id").rows()).containsExactly(
            List.of("12345.67", "x12345.67", "12345.67  ", fifth, "4115.2233333333333"),
            List.of("-0.01", "x-0.01", "-0.01     ", "-0.0000000001", "-0.0033333333333"),
            List.of("0.00", "x0.00", "0.00      ", "0.0000000000", "0.0000000000000"),
            row(null, null, null, null, null));
    // Over aggregates (the vectorized executor's) and as a grouping key.
    assertThat(everywhere("SELECT CAST(MIN(m) AS VARCHAR), CAST(SUM(m) AS VARCHAR) FROM p").rows())
        .containsExactly(List.of("-0.01", "12345.66"));
    assertThat(everywhere("SELECT CAST(m AS VARCHAR) AS s, COUNT(*) FROM p WHERE m < 1 GROUP BY CAST(m AS VARCHAR)"
        + " ORDER BY s").rows()).containsExactly(List.of("-0.01", 1L), List.of("0.00", 1L));
  }

  @Test
  void timeStringsKeepTheirFractionalSeconds() {
    assertThat(everywhere("SELECT CAST(TIME '12:34:56.123456' AS VARCHAR), CAST(TIME '12:34:56.123' AS VARCHAR),"
        + " CAST(TIME '12:34:56' AS VARCHAR), CAST(TIME '12:34:56.123456' AS CHAR(17)),"
        + " CAST(TIMESTAMP '2020-01-01 00:00:00.123456' AS VARCHAR), CAST(TIMESTAMP '2020-01-01 00:00:00.12' AS"
        + " VARCHAR), CAST(TIMESTAMP '2020-01-01 00:00:00.123' AS VARCHAR)").rows())
        .containsExactly(List.of("12:34:56.123456", "12:34:56.123", "12:34:56", "12:34:56.123456  ",
            "2020-01-01 00:00:00.123456", "2020-01-01 00:00:00.12", "2020-01-01 00:00:00.123"));
    assertThat(everywhere("SELECT CAST(t AS VARCHAR), CAST(CAST(t AS TIME(3)) AS VARCHAR), CAST(CAST(t AS TIME(0))"
        + " AS VARCHAR), CAST(CAST(ts AS TIME(6)) AS VARCHAR), CAST(CAST(ts AS TIMESTAMP(3)) AS VARCHAR),"
        + " CAST(CAST(ts AS TIME) AS VARCHAR) FROM p ORDER BY id").rows()).containsExactly(
            List.of("12:34:56.123456", "12:34:56.123", "12:34:56", "00:00:00.123456", "2020-01-01 00:00:00.123",
                "00:00:00.123"),
            List.of("00:00:00.000002", "00:00:00.000", "00:00:00", "23:59:59.999999", "1969-12-31 23:59:59.999",
                "23:59:59.999"),
            List.of("00:00:00.000001", "00:00:00.000", "00:00:00", "00:00:00.123455", "2020-01-01 00:00:00.123",
                "00:00:00.123"),
            row(null, null, null, null, null, null));
  }

  /**
   * A TIME without a precision is TIME(3), as a TIMESTAMP without one is TIMESTAMP(3) (docs/api.md): CAST(ts AS TIME)
   * holds the milliseconds of the time of day, truncated like CAST(ts AS TIMESTAMP(3)); TIME(6) keeps microseconds.
   */
  @Test
  void castOfATimestampToTimeKeepsWhatItsPrecisionSays() {
    Result result = everywhere("SELECT CAST(ts AS TIME), CAST(ts AS TIME(3)), CAST(CAST(ts AS TIMESTAMP) AS TIME),"
        + " CAST(ts AS TIME(6)), CAST(ts AS TIME(0)) FROM p ORDER BY id");
    assertThat(result.schema().getFields()).extracting(Field::getType)
        .containsExactly(TIME_MILLIS, TIME_MILLIS, TIME_MILLIS, TIME_MICROS, TIME_MILLIS);
    assertThat(result.rows()).containsExactly(
        List.of(time(0, 0, 0, 123_000_000), time(0, 0, 0, 123_000_000), time(0, 0, 0, 123_000_000), 123_456L,
            time(0, 0, 0, 0)),
        List.of(time(23, 59, 59, 999_000_000), time(23, 59, 59, 999_000_000), time(23, 59, 59, 999_000_000),
            86_399_999_999L, time(23, 59, 59, 0)),
        List.of(time(0, 0, 0, 123_000_000), time(0, 0, 0, 123_000_000), time(0, 0, 0, 123_000_000), 123_455L,
            time(0, 0, 0, 0)),
        row(null, null, null, null, null));
    Result literal = everywhere("SELECT CAST(TIMESTAMP '1969-12-31 23:59:59.999999' AS TIME),"
        + " CAST(TIMESTAMP '1969-12-31 23:59:59.999999' AS TIME(6)), CAST(TIME '12:34:56.123456' AS TIME)");
    assertThat(literal.schema().getFields()).extracting(Field::getType)
        .containsExactly(TIME_MILLIS, TIME_MICROS, TIME_MILLIS);
    assertThat(literal.rows()).containsExactly(
        List.of(time(23, 59, 59, 999_000_000), 86_399_999_999L, time(12, 34, 56, 123_000_000)));
  }

  @Test
  void timesCompareAndSortByTheirMicroseconds() {
    assertThat(everywhere("SELECT id FROM p WHERE t > TIME '00:00:00.000001' ORDER BY t").column(0))
        .containsExactly(2L, 1L);
    assertThat(everywhere("SELECT id FROM p ORDER BY CAST(ts AS TIME(6)) DESC NULLS LAST").column(0))
        .containsExactly(2L, 1L, 3L, 4L);
    assertThat(everywhere("SELECT id FROM p WHERE CAST(ts AS TIME(6)) = TIME '00:00:00.123455'").column(0))
        .containsExactly(3L);
    assertThat(everywhere("SELECT MIN(t), MAX(t) FROM p").rows()).containsExactly(List.of(1L, 45_296_123_456L));
  }

  /** A TIME(p <= 3) value as Arrow's getObject gives it. */
  private static LocalDateTime time(int hour, int minute, int second, int nanos) {
    return LocalDateTime.of(1970, 1, 1, hour, minute, second, nanos);
  }
}
