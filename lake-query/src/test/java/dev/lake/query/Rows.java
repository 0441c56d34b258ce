package dev.lake.query;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Test data: rows of Java values written into Arrow batches, handed to the engine as a reader. */
final class Rows {
  private Rows() {}

  static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  /**
   * A reader over {@code rows}, {@code batchRows} rows per batch, each batch written into freshly allocated
   * vectors. (Not an IPC stream: IPC-decoded buffers can be misaligned for Decimal128, and Lance's native code
   * aborts the JVM on them.)
   */
  static ArrowReader reader(BufferAllocator allocator, Schema schema, List<List<Object>> rows, int batchRows) {
    return new ArrowReader(allocator) {
      private int next;

      @Override
      public boolean loadNextBatch() throws IOException {
        VectorSchemaRoot root = getVectorSchemaRoot();
        if (next >= rows.size()) {
          return false;
        }
        int end = Math.min(rows.size(), next + batchRows);
        root.clear();
        root.allocateNew();
        for (int r = next; r < end; r++) {
          for (int c = 0; c < schema.getFields().size(); c++) {
            set(root.getVector(c), r - next, rows.get(r).get(c));
          }
        }
        root.setRowCount(end - next);
        next = end;
        return true;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {}

      @Override
      protected Schema readSchema() {
        return schema;
      }
    };
  }

  static void set(FieldVector vector, int index, Object value) {
    if (value == null) {
      vector.setNull(index);
      return;
    }
    if (vector instanceof BigIntVector) {
      ((BigIntVector) vector).setSafe(index, ((Number) value).longValue());
    } else if (vector instanceof IntVector) {
      ((IntVector) vector).setSafe(index, ((Number) value).intValue());
    } else if (vector instanceof SmallIntVector) {
      ((SmallIntVector) vector).setSafe(index, ((Number) value).shortValue());
    } else if (vector instanceof TinyIntVector) {
      ((TinyIntVector) vector).setSafe(index, ((Number) value).byteValue());
    } else if (vector instanceof Float4Vector) {
      ((Float4Vector) vector).setSafe(index, ((Number) value).floatValue());
    } else if (vector instanceof Float8Vector) {
      ((Float8Vector) vector).setSafe(index, ((Number) value).doubleValue());
    } else if (vector instanceof DecimalVector) {
      DecimalVector decimal = (DecimalVector) vector;
      decimal.setSafe(index, ((BigDecimal) value).setScale(decimal.getScale(), RoundingMode.UNNECESSARY));
    } else if (vector instanceof BitVector) {
      ((BitVector) vector).setSafe(index, ((Boolean) value) ? 1 : 0);
    } else if (vector instanceof DateDayVector) {
      ((DateDayVector) vector).setSafe(index, (int) ((LocalDate) value).toEpochDay());
    } else if (vector instanceof TimeMicroVector) {
      ((TimeMicroVector) vector).setSafe(index, ((LocalTime) value).toNanoOfDay() / 1_000);
    } else if (vector instanceof TimeMilliVector) {
      ((TimeMilliVector) vector).setSafe(index, (int) (((LocalTime) value).toNanoOfDay() / 1_000_000));
    } else if (vector instanceof TimeStampVector) {
      TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
      Instant instant = value instanceof Instant ? (Instant) value : ((LocalDateTime) value).toInstant(ZoneOffset.UTC);
      long micros = instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
      long stored = unit == TimeUnit.MICROSECOND ? micros : unit == TimeUnit.MILLISECOND ? micros / 1_000
          : unit == TimeUnit.NANOSECOND ? micros * 1_000 : micros / 1_000_000;
      ((TimeStampVector) vector).setSafe(index, stored);
    } else if (vector instanceof VariableWidthFieldVector) {
      byte[] bytes = value instanceof String ? ((String) value).getBytes(StandardCharsets.UTF_8) : (byte[]) value;
      ((VariableWidthFieldVector) vector).setSafe(index, bytes);
    } else {
      throw new IllegalArgumentException("no test setter for " + vector.getField());
    }
  }
}
