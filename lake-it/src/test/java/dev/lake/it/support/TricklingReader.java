package dev.lake.it.support;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A slow client's ingest stream: batches of one BIGINT column {@code v}; before handing out batch
 * {@code pauseBefore} it counts {@code paused} down and blocks until {@code release} opens (bounded: it then fails
 * the stream, so a broken test never hangs).
 */
public final class TricklingReader extends ArrowReader {
  public static final Schema SCHEMA = new Schema(List.of(Field.nullable("v", new ArrowType.Int(64, true))));
  private final List<List<Long>> batches;
  private final int pauseBefore;
  private final CountDownLatch paused;
  private final CountDownLatch release;
  private final long maxWaitSeconds;
  private int next;

  public TricklingReader(BufferAllocator allocator, List<List<Long>> batches, int pauseBefore,
      CountDownLatch paused, CountDownLatch release, long maxWaitSeconds) {
    super(allocator);
    this.batches = List.copyOf(batches);
    this.pauseBefore = pauseBefore;
    this.paused = paused;
    this.release = release;
    this.maxWaitSeconds = maxWaitSeconds;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    if (next >= batches.size()) {
      return false;
    }
    if (next == pauseBefore) {
      paused.countDown();
      try {
        if (!release.await(maxWaitSeconds, TimeUnit.SECONDS)) {
          throw new IOException("the test never released the trickling ingest");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while trickling", e);
      }
    }
    List<Long> values = batches.get(next++);
    VectorSchemaRoot root = getVectorSchemaRoot();
    root.allocateNew();
    BigIntVector v = (BigIntVector) root.getVector(0);
    for (int i = 0; i < values.size(); i++) {
      v.setSafe(i, values.get(i));
    }
    root.setRowCount(values.size());
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
