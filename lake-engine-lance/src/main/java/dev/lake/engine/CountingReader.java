package dev.lake.engine;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Passes a caller's reader through to Lance (aligning misaligned batches, which Lance's native code cannot take) while counting the rows and batches that go by, noting which
 * columns held nulls and keeping the first exception the producer threw (Lance only reports its text). Lance pulls
 * each batch on a different thread, so the counters are thread-safe. Closing closes the caller's reader once.
 */
final class CountingReader extends ArrowReader {
  private final ArrowReader delegate;
  private final AtomicLong rows = new AtomicLong();
  private final AtomicLong batches = new AtomicLong();
  private final AtomicReference<Throwable> producerFailure = new AtomicReference<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Set<String> columnsWithNulls = ConcurrentHashMap.newKeySet();

  /**
   * Buffers stay in the caller's reader, except copies made to align a misaligned batch (see
   * {@link AlignedBatches}), which come from {@code allocator}.
   */
  CountingReader(BufferAllocator allocator, ArrowReader delegate) {
    super(allocator);
    this.delegate = delegate;
  }

  long rows() {
    return rows.get();
  }

  long batches() {
    return batches.get();
  }

  /** The top-level columns that held at least one null in the batches that went by. */
  Set<String> columnsWithNulls() {
    return Set.copyOf(columnsWithNulls);
  }

  /** The first exception the caller's reader threw, if any. */
  Throwable producerFailure() {
    return producerFailure.get();
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return delegate.getVectorSchemaRoot();
  }

  @Override
  public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
    return delegate.getDictionaryVectors();
  }

  @Override
  public Dictionary lookup(long id) {
    return delegate.lookup(id);
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return delegate.getDictionaryIds();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    try {
      boolean loaded = delegate.loadNextBatch();
      if (loaded) {
        VectorSchemaRoot root = delegate.getVectorSchemaRoot();
        AlignedBatches.align(root, allocator);
        batches.incrementAndGet();
        rows.addAndGet(root.getRowCount());
        for (FieldVector vector : root.getFieldVectors()) {
          if (vector.getNullCount() > 0) {
            columnsWithNulls.add(vector.getName());
          }
        }
      }
      return loaded;
    } catch (IOException | RuntimeException | Error e) {
      producerFailure.compareAndSet(null, e);
      throw e;
    }
  }

  @Override
  public long bytesRead() {
    return delegate.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    if (closed.compareAndSet(false, true)) {
      delegate.close();
    }
  }

  @Override
  protected Schema readSchema() throws IOException {
    return delegate.getVectorSchemaRoot().getSchema();
  }
}
