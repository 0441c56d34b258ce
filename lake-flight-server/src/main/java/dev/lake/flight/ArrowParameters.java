package dev.lake.flight;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Reads one row of a parameter batch into the Java values the query service binds. */
final class ArrowParameters {
  private ArrowParameters() {}

  static List<Object> row(VectorSchemaRoot root, int row) {
    List<Object> values = new ArrayList<>();
    for (FieldVector v : root.getFieldVectors()) {
      values.add(value(v, row));
    }
    return values;
  }

  private static Object value(ValueVector v, int row) {
    if (v instanceof DenseUnionVector u) {
      return u.isNull(row) ? null : value(u.getVectorByType(u.getTypeId(row)), u.getOffset(row));
    }
    if (v.isNull(row)) {
      return null;
    }
    if (v instanceof BigIntVector x) return x.get(row);
    if (v instanceof IntVector x) return x.get(row);
    if (v instanceof SmallIntVector x) return x.get(row);
    if (v instanceof TinyIntVector x) return x.get(row);
    if (v instanceof Float8Vector x) return x.get(row);
    if (v instanceof Float4Vector x) return x.get(row);
    if (v instanceof DecimalVector x) return x.getObject(row);
    if (v instanceof VarCharVector x) return new String(x.get(row), StandardCharsets.UTF_8);
    if (v instanceof LargeVarCharVector x) return new String(x.get(row), StandardCharsets.UTF_8);
    if (v instanceof BitVector x) return x.get(row) != 0;
    if (v instanceof DateDayVector x) return LocalDate.ofEpochDay(x.get(row));
    if (v instanceof DateMilliVector x) return LocalDate.ofEpochDay(Math.floorDiv(x.get(row), 86_400_000L));
    if (v instanceof TimeMicroVector x) return LocalTime.ofNanoOfDay(x.get(row) * 1_000L);
    if (v instanceof TimeMilliVector x) return LocalTime.ofNanoOfDay(x.get(row) * 1_000_000L);
    if (v instanceof TimeNanoVector x) return LocalTime.ofNanoOfDay(x.get(row));
    if (v instanceof TimeSecVector x) return LocalTime.ofSecondOfDay(x.get(row));
    if (v instanceof TimeStampVector x) return timestamp(x, row);
    if (v instanceof VarBinaryVector x) return x.get(row);
    throw new LakeException(ErrorCode.INVALID_ARGUMENT,
        "parameters of type " + v.getField().getType() + " are not supported");
  }

  private static LocalDateTime timestamp(TimeStampVector x, int row) {
    ArrowType.Timestamp type = (ArrowType.Timestamp) x.getField().getType();
    long raw = x.get(row);
    Instant instant = switch (type.getUnit()) {
      case SECOND -> Instant.ofEpochSecond(raw);
      case MILLISECOND -> Instant.ofEpochMilli(raw);
      case MICROSECOND -> Instant.ofEpochSecond(Math.floorDiv(raw, 1_000_000L), Math.floorMod(raw, 1_000_000L) * 1_000L);
      case NANOSECOND -> Instant.ofEpochSecond(Math.floorDiv(raw, 1_000_000_000L), Math.floorMod(raw, 1_000_000_000L));
    };
    return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

}
