package dev.lake.flight;

import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A reader of {@code batches} one-row batches of one BIGINT column {@code k} (1, 2, ...); the batch at index
 * {@code failAt} (if not negative) cannot be read. For tests of what streams batches.
 */
public final class OneRowBatches extends ArrowReader {
  public static final Schema SCHEMA = new Schema(List.of(Field.nullable("k", new ArrowType.Int(64, true))));

  private final int batches;
  private final int failAt;
  private int loaded;

  public OneRowBatches(BufferAllocator allocator, int batches, int failAt) {
    super(allocator);
    this.batches = batches;
    this.failAt = failAt;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    if (loaded == failAt) {
      throw new IOException("unreadable batch " + (loaded + 1));
    }
    if (loaded == batches) {
      return false;
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    ((BigIntVector) root.getVector("k")).setSafe(0, ++loaded);
    root.setRowCount(1);
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
