package dev.lake.flight.metadata;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.Schema;

/** A DoGet listener that copies every batch it is sent, as a client would receive it. */
final class CollectingListener implements ServerStreamListener, AutoCloseable {
  private final BufferAllocator allocator;
  private final List<VectorSchemaRoot> batches = new ArrayList<>();
  private VectorSchemaRoot root;
  private Schema schema;
  private boolean completed;
  private Throwable error;
  private boolean cancelled;

  CollectingListener(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  /** Makes {@link #isCancelled()} answer true, as after a client cancels. */
  void cancel() {
    cancelled = true;
  }

  Schema schema() {
    return schema;
  }

  List<VectorSchemaRoot> batches() {
    return batches;
  }

  boolean isCompleted() {
    return completed;
  }

  Throwable error() {
    return error;
  }

  int totalRows() {
    return batches.stream().mapToInt(VectorSchemaRoot::getRowCount).sum();
  }

  /** The values of one column over all batches, as {@code getObject} returns them. */
  List<Object> column(String name) {
    List<Object> values = new ArrayList<>();
    for (VectorSchemaRoot batch : batches) {
      for (int i = 0; i < batch.getRowCount(); i++) {
        Object value = batch.getVector(name).getObject(i);
        values.add(value == null ? null : value instanceof org.apache.arrow.vector.util.Text
            ? value.toString() : value);
      }
    }
    return values;
  }

  @Override
  public boolean isCancelled() {
    return cancelled;
  }

  @Override
  public void setOnCancelHandler(Runnable handler) {}

  @Override
  public boolean isReady() {
    return true;
  }

  @Override
  public void start(VectorSchemaRoot root, DictionaryProvider dictionaries, IpcOption option) {
    if (this.root != null) {
      throw new IllegalStateException("started twice");
    }
    this.root = root;
    this.schema = root.getSchema();
  }

  @Override
  public void putNext() {
    if (root == null) {
      throw new IllegalStateException("putNext before start");
    }
    try (ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch()) {
      VectorSchemaRoot copy = VectorSchemaRoot.create(root.getSchema(), allocator);
      new VectorLoader(copy).load(batch);
      batches.add(copy);
    }
  }

  @Override
  public void putNext(ArrowBuf metadata) {
    putNext();
  }

  @Override
  public void putMetadata(ArrowBuf metadata) {}

  @Override
  public void error(Throwable ex) {
    error = ex;
  }

  @Override
  public void completed() {
    if (completed) {
      throw new IllegalStateException("completed twice");
    }
    completed = true;
  }

  @Override
  public void close() {
    batches.forEach(VectorSchemaRoot::close);
    batches.clear();
  }
}
