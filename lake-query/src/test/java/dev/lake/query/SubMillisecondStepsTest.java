package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Microseconds added, parsed or cast are exact or refused (docs/api.md, "Exactness"). Seen from a pyarrow client:
 * {@code TIMESTAMPADD(MICROSECOND, 1, ts)} and {@code ts + INTERVAL '0.000001' SECOND} returned {@code ts}
 * unchanged (Calcite holds day-time intervals in milliseconds), and {@code CAST('... .123456' AS TIMESTAMP(6))} of a
 * literal returned {@code .123} (Calcite folded it while planning, in milliseconds).
 */
class SubMillisecondStepsTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(32, true)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));
  private static final LocalDateTime TS = LocalDateTime.parse("2020-01-01T00:00:00.123456");

  @Override
  void createTables() {
    createTable("t", SCHEMA, List.of(List.of(1, TS)));
  }

  @Test
  void stepsBelowAMillisecondAreRefusedAndWholeMillisecondsAreExact() {
    refused("SELECT TIMESTAMPADD(MICROSECOND, 1, ts) FROM t", "TIMESTAMPADD by 1 MICROSECOND");
    refused("SELECT TIMESTAMPADD(NANOSECOND, 5, ts) FROM t", "TIMESTAMPADD by 5 NANOSECOND");
    refused("SELECT TIMESTAMPADD(MICROSECOND, id, ts) FROM t", "TIMESTAMPADD by id MICROSECOND");
    refused("SELECT ts + INTERVAL '0.000001' SECOND(1, 6) FROM t", "INTERVAL '0.000001'");
    assertThat(query("SELECT TIMESTAMPADD(MICROSECOND, 2000, ts), ts + INTERVAL '0.001' SECOND,"
        + " ts - INTERVAL '1.500000' SECOND(1, 6) FROM t").rows())
        .containsExactly(List.of(TS.plusNanos(2_000_000), TS.plusNanos(1_000_000), TS.minusNanos(1_500_000_000)));
  }

  @Test
  void textBecomesATimestampWithEveryDigit() {
    assertThat(query("SELECT CAST('2020-01-01 00:00:00.123456' AS TIMESTAMP(6)),"
        + " CAST('2020-01-01 00:00:00.123456' AS TIMESTAMP(6)) = ts FROM t").rows())
        .containsExactly(List.of(TS, true));
  }

  private void refused(String sql, String message) {
    assertThatThrownBy(() -> query(sql)).as(sql).isInstanceOf(CodedFailure.class).hasMessageContaining(message)
        .satisfies(e -> assertThat(((CodedFailure) e).errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }
}
