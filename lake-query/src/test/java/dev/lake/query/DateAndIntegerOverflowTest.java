package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A DATE or TIMESTAMP plus or minus an interval (or TIMESTAMPADD) beyond what its type holds, and ABS or negation of
 * the smallest value of an integer type, are refused naming the operation and the type, never wrapped
 * (docs/api.md, "Exactness" and "Errors"): for constants and for columns, on every executor.
 */
class DateAndIntegerOverflowTest extends LakeTestSupport {
  private static final Schema T = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(32, true)),
      Field.nullable("d", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("tsm", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
      Field.nullable("tsu", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      Field.nullable("tsn", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
      Field.nullable("n", new ArrowType.Int(32, true)),
      Field.nullable("big", new ArrowType.Int(32, true)),
      Field.nullable("b", new ArrowType.Int(8, true)),
      Field.nullable("s", new ArrowType.Int(16, true)),
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("l", new ArrowType.Int(64, true))));
  private static final LocalDateTime START = LocalDateTime.of(2020, 1, 1, 0, 0);

  /** The same catalog under each executor. */
  private final Map<String, QueryService> services = new LinkedHashMap<>();
  /** The refusals that did not happen, reported together at the end of a test. */
  private final List<String> failures = new java.util.ArrayList<>();

  @Override
  void createTables() {
    createTable("t", T, List.of(
        Arrays.asList(1, LocalDate.of(2020, 1, 1), START, START, START, 99_999, 999_999_999, (byte) -128,
            (short) -32768, Integer.MIN_VALUE, Long.MIN_VALUE),
        Arrays.asList(2, null, null, null, null, null, null, null, null, null, null)));
    services.put("auto", service);
    for (SubtreeExecutor executor : List.of(SubtreeExecutor.CALCITE, SubtreeExecutor.VECTORIZED,
        SubtreeExecutor.LANCE_SQL)) {
      services.put(executor.name(), new QueryService(catalog, engine,
          QueryOptions.defaults().withExecutor(executor)));
    }
  }

  @AfterAll
  void closeServices() {
    services.entrySet().stream().filter(e -> !e.getKey().equals("auto")).forEach(e -> e.getValue().close());
  }

  @Test
  void dateArithmeticWithinTheTypeIsExact() {
    assertThat(everywhere("SELECT DATE '2020-01-01' + INTERVAL '99999' YEAR, TIMESTAMPADD(YEAR, 99999,"
        + " DATE '2020-01-01'), DATE '2020-01-01' - INTERVAL '1' DAY, TIMESTAMPADD(DAY, -1, DATE '2020-03-01'),"
        + " TIMESTAMP '2020-01-01 00:00:00' + INTERVAL '99999' YEAR"))
        .containsExactly(List.of(LocalDate.of(102_019, 1, 1), LocalDate.of(102_019, 1, 1),
            LocalDate.of(2019, 12, 31), LocalDate.of(2020, 2, 29), START.plusYears(99_999)));
    assertThat(everywhere("SELECT d + INTERVAL '99999' YEAR, TIMESTAMPADD(YEAR, n, d), d + n * INTERVAL '1' MONTH,"
        + " tsu + INTERVAL '200000' YEAR(6), tsm - INTERVAL '1' DAY, d + big * INTERVAL '1' DAY FROM t ORDER BY id"))
        .containsExactly(List.of(LocalDate.of(102_019, 1, 1), LocalDate.of(102_019, 1, 1),
            LocalDate.of(10_353, 4, 1), START.plusYears(200_000), START.minusDays(1),
            LocalDate.of(2020, 1, 1).plusDays(999_999_999)),
            Arrays.asList(null, null, null, null, null, null));
  }

  @Test
  void dateArithmeticBeyondTheTypeIsRefused() {
    failures.clear();
    refused("SELECT TIMESTAMPADD(YEAR, 999999999, DATE '2020-01-01')", "overflow");
    refused("SELECT DATE '2020-01-01' + INTERVAL '9999999' YEAR(7)", "DATE");
    refused("SELECT DATE '2020-01-01' - INTERVAL '9999999' YEAR(7)", "DATE");
    refused("SELECT DATE '2020-01-01' + INTERVAL '2147483647' DAY(10)", "DATE");
    refused("SELECT TIMESTAMPADD(DAY, 2147483647, DATE '2020-01-01')", "DATE");
    refused("SELECT TIMESTAMP '2020-01-01 00:00:00' + INTERVAL '999999999' YEAR(9)", "INTERVAL overflow");
    refused("SELECT TIMESTAMPADD(YEAR, 999999999, TIMESTAMP '2020-01-01 00:00:00')", "overflow");
    refused("SELECT TIMESTAMPADD(YEAR, big, d) FROM t", "overflow");
    refused("SELECT d + big * INTERVAL '3' DAY FROM t", "DATE overflow");
    refused("SELECT d + INTERVAL '9999999' YEAR(7) FROM t", "DATE");
    refused("SELECT d - INTERVAL '2147483647' DAY(10) - INTERVAL '100' YEAR FROM t", "DATE overflow");
    refused("SELECT TIMESTAMPADD(YEAR, big, tsm) FROM t", "overflow");
    refused("SELECT tsm + INTERVAL '999999999' YEAR(9) FROM t", "INTERVAL overflow");
    refused("SELECT tsu + INTERVAL '999999' YEAR(6) FROM t", "TIMESTAMP");
    refused("SELECT tsn + INTERVAL '300' YEAR(3) FROM t", "TIMESTAMP");
    refused("SELECT TIMESTAMPADD(YEAR, 300, tsn) FROM t", "TIMESTAMP");
    assertThat(failures).isEmpty();
  }

  @Test
  void absAndNegationOfTheSmallestIntegerAreRefused() {
    failures.clear();
    assertThat(everywhere("SELECT ABS(CAST(-127 AS TINYINT)), -CAST(-127 AS TINYINT), ABS(CAST(-32767 AS SMALLINT)),"
        + " ABS(-2147483647), -CAST(-9223372036854775807 AS BIGINT)"))
        .containsExactly(List.of((byte) 127, (byte) 127, (short) 32767, 2147483647, 9223372036854775807L));
    for (String type : List.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT")) {
      String min = type.equals("TINYINT") ? "-128" : type.equals("SMALLINT") ? "-32768"
          : type.equals("INTEGER") ? "-2147483648" : "-9223372036854775808";
      refused("SELECT ABS(CAST(" + min + " AS " + type + "))", type);
      refused("SELECT -CAST(" + min + " AS " + type + ")", type);
    }
    refused("SELECT 2147483647 + 1", "overflow");
    refused("SELECT -(-2147483647 - 1)", "overflow");
    for (String column : List.of("b", "s", "i", "l")) {
      refused("SELECT ABS(" + column + ") FROM t", "overflow");
      refused("SELECT -" + column + " FROM t", "overflow");
      refused("SELECT id, SUM(-" + column + ") FROM t GROUP BY id", "overflow");
    }
    assertThat(failures).isEmpty();
  }

  /** {@code sql}'s rows under every executor, which must agree. */
  private List<List<Object>> everywhere(String sql) {
    List<List<Object>> first = null;
    for (Map.Entry<String, QueryService> entry : services.entrySet()) {
      QueryService target = entry.getValue();
      Result result = collect(target.execute(sql, target.prepare(sql).pins(), List.of(), allocator));
      if (first == null) {
        first = result.rows();
      } else {
        assertThat(result.rows()).as(entry.getKey() + ": " + sql).isEqualTo(first);
      }
    }
    return first;
  }

  /** Checks {@code sql} is refused with {@code message} under every executor; what is not is kept in failures. */
  private void refused(String sql, String message) {
    for (Map.Entry<String, QueryService> entry : services.entrySet()) {
      QueryService target = entry.getValue();
      Object[] answer = new Object[1];
      Throwable thrown = catchThrowable(() ->
          answer[0] = collect(target.execute(sql, target.prepare(sql).pins(), List.of(), allocator)).rows());
      String where = entry.getKey() + ": " + sql;
      if (thrown == null) {
        failures.add(where + " answered " + answer[0]);
      } else if (!(thrown instanceof CodedFailure) || ((CodedFailure) thrown).errorCode() != ErrorCode.INVALID_ARGUMENT
          || !String.valueOf(thrown.getMessage()).contains(message)) {
        failures.add(where + " failed with " + thrown);
      }
    }
  }
}
