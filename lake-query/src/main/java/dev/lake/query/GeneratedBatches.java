package dev.lake.query;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Generated rows {@code [from, to)} as Arrow batches of at most {@code batchRows} rows, each written into freshly
 * allocated vectors by a {@link RowWriter}: synthetic tables without a row list held in memory (the start-up
 * warm-up's, {@link ExecutorWarmup}, and tests').
 */
final class GeneratedBatches extends ArrowReader {
  /** Sets row {@code row} of the table at index {@code at} of the batch. */
  @FunctionalInterface
  interface RowWriter {
    void write(VectorSchemaRoot root, int at, int row);
  }

  private final Schema schema;
  private final int to;
  private final int batchRows;
  private final RowWriter writer;
  private int next;

  GeneratedBatches(BufferAllocator allocator, Schema schema, int from, int to, int batchRows, RowWriter writer) {
    super(allocator);
    this.schema = schema;
    this.next = from;
    this.to = to;
    this.batchRows = batchRows;
    this.writer = writer;
  }

  @Override
  public boolean loadNextBatch() throws java.io.IOException {
    if (next >= to) {
      return false;
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    int n = Math.min(batchRows, to - next);
    root.clear();
    root.setRowCount(0);
    for (FieldVector vector : root.getFieldVectors()) {
      vector.setInitialCapacity(n);
      vector.allocateNew();
    }
    for (int r = 0; r < n; r++) {
      writer.write(root, r, next + r);
    }
    root.setRowCount(n);
    next += n;
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
}
