package dev.lake.query.exec;

import dev.lake.query.exec.ValueWriters.ValueWriter;
import dev.lake.query.guard.QueryGuard;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Writes rows computed by Calcite into Arrow batches: fills up to the batch size, hands the batch out, and pulls the
 * next rows only when asked for the next batch. Rows are an {@code Object[]}, or the value itself when the result
 * has one column. A batch also ends once its buffers pass {@link #MAX_BATCH_BYTES}: rows of wide strings (a
 * 700 KB literal in every row) would otherwise fill one vector past the query's memory limit, or Arrow's 2 GiB.
 */
final class RowBatches implements BatchSource {
  /** The buffer bytes after which a batch is handed out (checked every {@link #SIZE_CHECK_ROWS} rows). */
  static final long MAX_BATCH_BYTES = 64L << 20;
  private static final int SIZE_CHECK_ROWS = 64;
  private final Supplier<Enumerator<Object>> opener;
  private final int batchSize;
  private final AutoCloseable onClose;
  private final QueryGuard guard;
  private Enumerator<Object> rows;
  private ValueWriter[] writers;
  private boolean done;

  /**
   * @param opener opens the rows on the first batch (a sort or hash join then reads its input there, not when the
   *     stream is created)
   */
  RowBatches(Supplier<Enumerator<Object>> opener, int batchSize, AutoCloseable onClose, QueryGuard guard) {
    this.opener = opener;
    this.batchSize = batchSize;
    this.onClose = onClose;
    this.guard = guard;
  }

  @Override
  public boolean fill(VectorSchemaRoot out) {
    List<FieldVector> vectors = out.getFieldVectors();
    if (writers == null) {
      writers = new ValueWriter[vectors.size()];
      for (int i = 0; i < writers.length; i++) {
        writers[i] = ValueWriters.forVector(vectors.get(i));
      }
    }
    for (FieldVector vector : vectors) {
      vector.clear();
      vector.allocateNew();
    }
    guard.check();
    if (rows == null && !done) {
      rows = opener.get();
    }
    int count = 0;
    while (!done && count < batchSize) {
      if ((count & 1023) == 0) {
        guard.check();
      }
      if (!rows.moveNext()) {
        done = true;
        break;
      }
      write(rows.current(), count++);
      if (count % SIZE_CHECK_ROWS == 0 && bytes(vectors, count) >= MAX_BATCH_BYTES) {
        break;
      }
    }
    for (FieldVector vector : vectors) {
      vector.setValueCount(count);
    }
    out.setRowCount(count);
    return count > 0;
  }

  /** The bytes the first {@code rows} rows written take in {@code vectors}. */
  private static long bytes(List<FieldVector> vectors, int rows) {
    long bytes = 0;
    for (FieldVector vector : vectors) {
      bytes += vector.getBufferSizeFor(rows);
    }
    return bytes;
  }

  private void write(Object row, int index) {
    if (writers.length == 1) {
      writers[0].write(index, row instanceof Object[] && ((Object[]) row).length == 1 ? ((Object[]) row)[0] : row);
      return;
    }
    Object[] values = row instanceof List ? ((List<?>) row).toArray() : (Object[]) row;
    for (int i = 0; i < writers.length; i++) {
      writers[i].write(index, values[i]);
    }
  }

  @Override
  public void close() {
    try {
      onClose.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing the row source failed: " + e.getMessage(), e);
    } finally {
      done = true;
      if (rows != null) {
        rows.close();
      }
    }
  }
}
