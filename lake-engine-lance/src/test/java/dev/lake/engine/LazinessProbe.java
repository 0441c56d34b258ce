package dev.lake.engine;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A producer that watches its consumer: each batch gets fresh buffers, and at every pull the probe counts how many
 * earlier batches (before the one the producer itself still holds) are still referenced, i.e. loaded but not yet
 * consumed and released by the consumer. An eager consumer that buffers the stream keeps many alive.
 */
final class LazinessProbe extends ArrowReader {
  static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true))));

  private final int batches;
  private final int rowsPerBatch;
  private final List<List<ArrowBuf>> buffersByBatch = new ArrayList<>();
  private volatile int maxUnconsumed;
  private volatile int loaded;

  LazinessProbe(BufferAllocator allocator, int batches, int rowsPerBatch) {
    super(allocator);
    this.batches = batches;
    this.rowsPerBatch = rowsPerBatch;
  }

  int loadedBatches() {
    return loaded;
  }

  /** The most batches the consumer held at once, not counting the one the producer still holds. */
  int maxUnconsumedBatches() {
    return maxUnconsumed;
  }

  @Override
  public synchronized boolean loadNextBatch() throws java.io.IOException {
    int unconsumed = 0;
    for (int batch = 0; batch < buffersByBatch.size() - 1; batch++) {
      if (buffersByBatch.get(batch).stream().anyMatch(buffer -> buffer.refCnt() > 0)) {
        unconsumed++;
      }
    }
    maxUnconsumed = Math.max(maxUnconsumed, unconsumed);
    if (loaded == batches) {
      return false;
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    BigIntVector ids = (BigIntVector) root.getVector(0);
    ids.allocateNew(rowsPerBatch);
    for (int i = 0; i < rowsPerBatch; i++) {
      ids.set(i, (long) loaded * rowsPerBatch + i);
    }
    root.setRowCount(rowsPerBatch);
    buffersByBatch.add(List.of(ids.getBuffers(false)));
    loaded++;
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
    return SCHEMA;
  }
}
