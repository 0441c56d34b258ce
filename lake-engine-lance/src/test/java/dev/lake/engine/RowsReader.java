package dev.lake.engine;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A test producer: serves fixed rows as batches of {@code batchSize}, and counts the batches it loaded and whether
 * it was closed. Can be told to throw when asked for a given batch.
 */
final class RowsReader extends ArrowReader {
  private final Schema schema;
  private final List<List<Object>> rows;
  private final int batchSize;
  private final int failAtBatch;
  private final AtomicInteger loaded = new AtomicInteger();
  private volatile boolean closed;
  private int next;

  RowsReader(BufferAllocator allocator, Schema schema, List<List<Object>> rows, int batchSize) {
    this(allocator, schema, rows, batchSize, -1);
  }

  /** @param failAtBatch the 0-based batch whose load throws, or -1 */
  RowsReader(BufferAllocator allocator, Schema schema, List<List<Object>> rows, int batchSize, int failAtBatch) {
    super(allocator);
    this.schema = schema;
    this.rows = rows;
    this.batchSize = batchSize;
    this.failAtBatch = failAtBatch;
  }

  int loadedBatches() {
    return loaded.get();
  }

  boolean closed() {
    return closed;
  }

  @Override
  public boolean loadNextBatch() throws java.io.IOException {
    if (loaded.get() == failAtBatch) {
      throw new java.io.IOException("test producer failed at batch " + failAtBatch);
    }
    if (next >= rows.size()) {
      return false;
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    root.allocateNew();
    int count = Math.min(batchSize, rows.size() - next);
    for (int r = 0; r < count; r++) {
      List<Object> row = rows.get(next + r);
      for (int c = 0; c < row.size(); c++) {
        set(root.getVector(c), r, row.get(c));
      }
    }
    root.setRowCount(count);
    next += count;
    loaded.incrementAndGet();
    return true;
  }

  static void set(FieldVector vector, int i, Object value) {
    if (value == null) {
      vector.setNull(i);
      return;
    }
    if (vector instanceof TinyIntVector v) {
      v.setSafe(i, (Byte) value);
    } else if (vector instanceof SmallIntVector v) {
      v.setSafe(i, (Short) value);
    } else if (vector instanceof IntVector v) {
      v.setSafe(i, (Integer) value);
    } else if (vector instanceof BigIntVector v) {
      v.setSafe(i, ((Number) value).longValue());
    } else if (vector instanceof Float4Vector v) {
      v.setSafe(i, (Float) value);
    } else if (vector instanceof Float8Vector v) {
      v.setSafe(i, (Double) value);
    } else if (vector instanceof DecimalVector v) {
      v.setSafe(i, (BigDecimal) value);
    } else if (vector instanceof VarCharVector v) {
      v.setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
    } else if (vector instanceof BitVector v) {
      v.setSafe(i, (Boolean) value ? 1 : 0);
    } else if (vector instanceof DateDayVector v) {
      v.setSafe(i, (int) ((LocalDate) value).toEpochDay());
    } else if (vector instanceof TimeMicroVector v) {
      v.setSafe(i, ((LocalTime) value).toNanoOfDay() / 1000);
    } else if (vector instanceof TimeStampMicroVector v) {
      v.setSafe(i, micros(((LocalDateTime) value).toInstant(ZoneOffset.UTC)));
    } else if (vector instanceof TimeStampMicroTZVector v) {
      v.setSafe(i, micros((Instant) value));
    } else if (vector instanceof VarBinaryVector v) {
      v.setSafe(i, (byte[]) value);
    } else {
      throw new IllegalArgumentException("no test setter for " + vector.getClass().getSimpleName());
    }
  }

  private static long micros(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    closed = true;
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
