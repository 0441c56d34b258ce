package dev.lake.engine;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A reader over Lance's output (a scan or a SQL result) handed to callers. Batches pass through unchanged; failures
 * become {@link EngineException}s (unchecked, thrown from {@link #loadNextBatch()}); closing closes the Lance reader
 * and everything it depends on (its scanner), in order, gives their handles back and tells the owning snapshot.
 *
 * <p>A cancel may close the reader from another thread while a batch is being loaded; Lance's native reader must
 * not be released under a running call, so loading and closing are serialized (a close waits for at most the
 * batch in flight) and a load after close fails cleanly.
 */
final class TrackedReader extends ArrowReader {
  private final Tracked<ArrowReader> delegate;
  private final List<Tracked<?>> dependencies;
  private final String action;
  private final LanceLocation location;
  private final Runnable onClose;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Object lock = new Object();

  /**
   * @param allocator only nominal: batches live in the allocator Lance was given
   * @param dependencies closed after the reader, in this order
   * @param action what the reader does, for messages ("scan of version 3")
   */
  TrackedReader(BufferAllocator allocator, Tracked<ArrowReader> delegate, List<Tracked<?>> dependencies,
      String action, LanceLocation location, Runnable onClose) {
    super(allocator);
    this.delegate = delegate;
    this.dependencies = List.copyOf(dependencies);
    this.action = action;
    this.location = location;
    this.onClose = onClose;
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() {
    try {
      return delegate.get().getVectorSchemaRoot();
    } catch (IOException | RuntimeException e) {
      throw LanceErrors.translate(action, location, e, LanceErrors.Input.EXPRESSION);
    }
  }

  @Override
  public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
    return delegate.get().getDictionaryVectors();
  }

  @Override
  public Dictionary lookup(long id) {
    return delegate.get().lookup(id);
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return delegate.get().getDictionaryIds();
  }

  @Override
  public boolean loadNextBatch() {
    synchronized (lock) {
      if (closed.get()) {
        throw new EngineException(action + " at " + location.location() + ": the reader was closed (cancelled)",
            null);
      }
      try {
        return delegate.get().loadNextBatch();
      } catch (IOException | RuntimeException e) {
        throw LanceErrors.translate(action, location, e, LanceErrors.Input.EXPRESSION);
      }
    }
  }

  @Override
  public long bytesRead() {
    return delegate.get().bytesRead();
  }

  @Override
  protected Schema readSchema() {
    return getVectorSchemaRoot().getSchema();
  }

  @Override
  protected void closeReadSource() throws IOException {
    synchronized (lock) {
      if (closed.compareAndSet(false, true)) {
        closeAll();
      }
    }
  }

  private void closeAll() throws IOException {
    Exception failure = null;
    try {
      delegate.close();
    } catch (Exception e) {
      failure = e;
    }
    for (Tracked<?> dependency : dependencies) {
      try {
        dependency.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    onClose.run();
    if (failure != null) {
      throw new IOException("closing " + action + " at " + location.location() + " failed: "
          + LanceErrors.detail(failure), failure);
    }
  }
}
