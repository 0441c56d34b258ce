package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class LanceTypesTest extends EngineTestSupport {
  static final Schema ALL_TYPES = new Schema(List.of(
      Field.nullable("tiny", new ArrowType.Int(8, true)),
      Field.nullable("small", new ArrowType.Int(16, true)),
      Field.nullable("int", new ArrowType.Int(32, true)),
      Field.nullable("big", new ArrowType.Int(64, true)),
      Field.nullable("real", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
      Field.nullable("dbl", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("dec38", new ArrowType.Decimal(38, 10, 128)),
      Field.nullable("dec12", new ArrowType.Decimal(12, 2, 128)),
      Field.nullable("text", new ArrowType.Utf8()),
      Field.nullable("flag", new ArrowType.Bool()),
      Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("tod", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      Field.nullable("ts_utc", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
      Field.nullable("ts_ny", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "America/New_York")),
      Field.nullable("bytes", new ArrowType.Binary())));

  static List<List<Object>> rows() {
    List<List<Object>> rows = new ArrayList<>();
    rows.add(Rows.row((byte) 7, (short) 300, 70_000, 5_000_000_000L, 1.5f, 2.25,
        new BigDecimal("1234567890123456789012345678.0123456789"), new BigDecimal("9999999999.99"),
        "héllo", true, LocalDate.of(2026, 1, 31), LocalTime.of(23, 59, 59, 123_456_000),
        LocalDateTime.of(2026, 1, 1, 0, 0, 0, 1_000), Instant.parse("2026-01-01T12:00:00.000001Z"),
        Instant.parse("1969-12-31T23:59:59.999999Z"), new byte[] {0, 1, (byte) 0xff}));
    rows.add(Rows.row(Byte.MIN_VALUE, Short.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE, -0.0f,
        Double.MAX_VALUE, new BigDecimal("-9999999999999999999999999999.9999999999"),
        new BigDecimal("-0.01"), "", false, LocalDate.of(1, 1, 1), LocalTime.MIDNIGHT,
        LocalDateTime.of(1900, 2, 28, 13, 14, 15, 999_999_000), Instant.EPOCH,
        Instant.parse("2300-06-30T01:02:03.456789Z"), new byte[0]));
    rows.add(new ArrayList<>(Collections.nCopies(ALL_TYPES.getFields().size(), null)));
    return rows;
  }

  @Test
  void everySupportedTypeRoundTripsExactlyThroughStageCreateAndScan() {
    String location = newLocation("types");
    List<List<Object>> expected = Rows.drain(new RowsReader(allocator, ALL_TYPES, rows(), 100));

    long v1 = engine.create(location, engine.stage(location, new RowsReader(allocator, ALL_TYPES, rows(), 2)));

    try (TableSnapshot snapshot = engine.open(location, v1, allocator)) {
      assertThat(snapshot.schema().getFields())
          .as("Lance keeps every column's name, type and nullability")
          .containsExactlyElementsOf(ALL_TYPES.getFields());
      List<List<Object>> scanned = Rows.drain(snapshot.scan(List.of(), Optional.empty(), Optional.empty(), 100));
      assertThat(scanned).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void appendingTheSameTypesAgainIsAccepted() {
    String location = newLocation("types");
    long v1 = engine.create(location, engine.stage(location, new RowsReader(allocator, ALL_TYPES, rows(), 2)));

    long v2 = engine.commit(location, v1,
        new TableChange.Append(engine.stage(location, new RowsReader(allocator, ALL_TYPES, rows(), 2))));

    try (TableSnapshot snapshot = engine.open(location, v2, allocator)) {
      assertThat(snapshot.countRows()).isEqualTo(6);
    }
  }

  @Test
  void notNullColumnsStayNotNull() {
    String location = newLocation("required");
    Schema required = new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("name", new ArrowType.Utf8())));

    long v1 = engine.create(location,
        engine.stage(location, new RowsReader(allocator, required, List.of(Rows.row(1L, null)), 10)));

    try (TableSnapshot snapshot = engine.open(location, v1, allocator)) {
      assertThat(snapshot.schema()).isEqualTo(required);
    }
  }

  @Test
  void appendRefusesNullsForANotNullColumnButTakesNullableDataWithoutNulls() {
    String location = newLocation("required");
    Schema required = new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("name", new ArrowType.Utf8())));
    long v1 = engine.create(location,
        engine.stage(location, new RowsReader(allocator, required, List.of(Rows.row(1L, "a")), 10)));
    StagedData withNull = engine.stage(location,
        new RowsReader(allocator, ID_NAME, List.of(Rows.row(2L, "b"), Rows.row(null, "c")), 10));
    StagedData withoutNull = engine.stage(location,
        new RowsReader(allocator, ID_NAME, List.of(Rows.row(3L, null)), 10));

    assertThatThrownBy(() -> engine.commit(location, v1, new TableChange.Append(withNull)))
        .isInstanceOf(IncompatibleDataException.class)
        .hasMessageContaining("NOT NULL column id holds nulls");
    long v2 = engine.commit(location, v1, new TableChange.Append(withoutNull));

    assertThat(v2).isEqualTo(2);
    assertThat(idsAt(location, v2)).containsExactly(1L, 3L);
  }

  @Test
  void stagingNullsUnderANotNullSchemaIsRefused() {
    String location = newLocation("required");
    Schema required = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true))));
    List<List<Object>> rows = new ArrayList<>();
    rows.add(Rows.row(1L));
    rows.add(Rows.row((Object) null));

    assertThatThrownBy(() -> engine.stage(location, new RowsReader(allocator, required, rows, 10)))
        .isInstanceOf(IncompatibleDataException.class);
    assertThat(engine.exists(location)).isFalse();
  }
}
