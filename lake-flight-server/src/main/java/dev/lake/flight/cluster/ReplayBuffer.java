package dev.lake.flight.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * The batches of one forwarded ingest sent to the leader so far, kept (by reference: the incoming buffers are
 * retained, not copied) so that the ingest can be sent again to a new leader when the old one stalled or went away
 * (docs/architecture.md, "Forwarding"). Bounded by {@code forwarding.retry-buffer}: past it, everything is released
 * and the ingest can no longer be re-routed (it is answered as before: UNAVAILABLE or UNKNOWN). Not thread-safe.
 */
final class ReplayBuffer implements AutoCloseable {
  private final long capacity;
  private final List<ArrowRecordBatch> batches = new ArrayList<>();
  private long bytes;
  private boolean overflowed;

  ReplayBuffer(long capacity) {
    this.capacity = capacity;
  }

  /** Keeps the batch {@code root} holds now, unless the bound is (or would be) exceeded. */
  void add(VectorSchemaRoot root) {
    if (overflowed) {
      return;
    }
    ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch();
    bytes += batch.computeBodyLength();
    batches.add(batch);
    if (bytes > capacity) {
      overflowed = true;
      close();
    }
  }

  /** True while every batch sent so far is held (the ingest can be sent again from the start). */
  boolean complete() {
    return !overflowed;
  }

  List<ArrowRecordBatch> batches() {
    return Collections.unmodifiableList(batches);
  }

  @Override
  public void close() {
    batches.forEach(ArrowRecordBatch::close);
    batches.clear();
  }
}
