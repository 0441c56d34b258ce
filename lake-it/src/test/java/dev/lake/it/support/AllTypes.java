package dev.lake.it.support;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Rows covering every type lake round-trips, with NULLs in every nullable column and edge values (empty string,
 * extremes, microseconds, a zone other than UTC). Row {@code i} of the whole data set has id {@code i}.
 */
public final class AllTypes {
  public static final String ZONE = "Europe/Paris";

  public static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("c_tinyint", new ArrowType.Int(8, true)),
      Field.nullable("c_smallint", new ArrowType.Int(16, true)),
      Field.nullable("c_int", new ArrowType.Int(32, true)),
      Field.nullable("c_bigint", new ArrowType.Int(64, true)),
      Field.nullable("c_float", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
      Field.nullable("c_double", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("c_dec38", new ArrowType.Decimal(38, 10, 128)),
      Field.nullable("c_dec12", new ArrowType.Decimal(12, 2, 128)),
      Field.nullable("c_varchar", new ArrowType.Utf8()),
      Field.nullable("c_boolean", new ArrowType.Bool()),
      Field.nullable("c_date", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("c_time", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
      Field.nullable("c_timestamp", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      Field.nullable("c_timestamptz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, ZONE)),
      Field.nullable("c_varbinary", new ArrowType.Binary())));

  private AllTypes() {}

  /** A batch holding rows {@code first} .. {@code first + count - 1}. */
  public static VectorSchemaRoot batch(BufferAllocator allocator, int first, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    for (int r = 0; r < count; r++) {
      int id = first + r;
      ((BigIntVector) root.getVector("id")).setSafe(r, id);
      boolean nulls = id % 3 == 2;
      if (nulls) {
        for (int c = 1; c < SCHEMA.getFields().size(); c++) {
          root.getVector(c).setNull(r);
        }
        continue;
      }
      boolean edge = id % 3 == 1;
      ((TinyIntVector) root.getVector("c_tinyint")).setSafe(r, edge ? Byte.MIN_VALUE : id);
      ((SmallIntVector) root.getVector("c_smallint")).setSafe(r, edge ? Short.MAX_VALUE : id * 7);
      ((IntVector) root.getVector("c_int")).setSafe(r, edge ? Integer.MIN_VALUE : id * 1000);
      ((BigIntVector) root.getVector("c_bigint")).setSafe(r, edge ? Long.MAX_VALUE : id * 1_000_000_007L);
      ((Float4Vector) root.getVector("c_float")).setSafe(r, edge ? -1.5e30f : id + 0.25f);
      ((Float8Vector) root.getVector("c_double")).setSafe(r, edge ? Double.MIN_VALUE : id / 3.0);
      ((DecimalVector) root.getVector("c_dec38")).setSafe(r, dec38(id, edge));
      ((DecimalVector) root.getVector("c_dec12")).setSafe(r, dec12(id, edge));
      ((VarCharVector) root.getVector("c_varchar")).setSafe(r, varchar(id, edge).getBytes(StandardCharsets.UTF_8));
      ((BitVector) root.getVector("c_boolean")).setSafe(r, edge ? 0 : 1);
      ((DateDayVector) root.getVector("c_date")).setSafe(r, (int) date(id, edge).toEpochDay());
      ((TimeMicroVector) root.getVector("c_time")).setSafe(r, time(id, edge).toNanoOfDay() / 1000);
      ((TimeStampMicroVector) root.getVector("c_timestamp")).setSafe(r, micros(timestamp(id, edge)));
      ((TimeStampMicroTZVector) root.getVector("c_timestamptz")).setSafe(r, micros(timestamp(id, !edge)));
      ((VarBinaryVector) root.getVector("c_varbinary")).setSafe(r, binary(id, edge));
    }
    root.setRowCount(count);
    return root;
  }

  public static BigDecimal dec38(int id, boolean edge) {
    return edge ? new BigDecimal("-9999999999999999999999999999.9999999999")
        : new BigDecimal(id).add(new BigDecimal("0.0000000001")).setScale(10);
  }

  public static BigDecimal dec12(int id, boolean edge) {
    return edge ? new BigDecimal("9999999999.99") : new BigDecimal(id).movePointLeft(2).add(BigDecimal.TEN).setScale(2);
  }

  public static String varchar(int id, boolean edge) {
    return edge ? "" : "row " + id + " é ✓";
  }

  public static LocalDate date(int id, boolean edge) {
    return edge ? LocalDate.of(1900, 1, 1) : LocalDate.of(2026, 1, 1).plusDays(id);
  }

  public static LocalTime time(int id, boolean edge) {
    return edge ? LocalTime.of(23, 59, 59, 999_999_000) : LocalTime.of(12, 0).plusNanos(id * 1_001_001_000L);
  }

  public static LocalDateTime timestamp(int id, boolean edge) {
    return edge ? LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)
        : LocalDateTime.of(2026, 11, 30, 8, 0).plusNanos(id * 123_456_000L);
  }

  public static byte[] binary(int id, boolean edge) {
    return edge ? new byte[0] : new byte[] {(byte) id, 0, (byte) 0xff};
  }

  public static long micros(LocalDateTime t) {
    var instant = t.toInstant(ZoneOffset.UTC);
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1000;
  }

  /** Normalizes an Arrow {@code getObject} value for comparison (Text -> String, byte[] -> list). */
  public static Object normalize(Object v) {
    if (v instanceof org.apache.arrow.vector.util.Text t) {
      return t.toString();
    }
    if (v instanceof byte[] b) {
      List<Byte> out = new ArrayList<>();
      for (byte x : b) out.add(x);
      return out;
    }
    return v;
  }
}
