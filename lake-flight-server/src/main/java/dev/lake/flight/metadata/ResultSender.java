package dev.lake.flight.metadata;

import java.util.List;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Sends rows to a DoGet listener in batches of at most {@link #BATCH_ROWS} rows, always at least
 * one batch (possibly empty), then completes the listener. Metadata results are small, so it does
 * not wait for {@code isReady()}; it stops early if the client cancelled.
 */
final class ResultSender {

  /** The most rows one batch carries. */
  static final int BATCH_ROWS = 1024;

  /** Writes a batch of rows into a freshly allocated root at indexes 0..n-1. */
  @FunctionalInterface
  interface BatchFiller<T> {
    /**
     * Fills {@code root} with {@code rows} and sets its row count.
     *
     * @param root the root, allocated and empty
     * @param rows the rows of this batch
     */
    void fill(VectorSchemaRoot root, List<T> rows);
  }

  private ResultSender() {}

  /**
   * Streams {@code rows} and completes the listener. On an exception the listener is left
   * uncompleted and the exception propagates, so the caller reports it in one place.
   *
   * @param schema the result schema
   * @param rows all result rows
   * @param filler writes one batch
   * @param allocator where the batches' buffers come from
   * @param listener the DoGet listener
   */
  static <T> void send(
      Schema schema,
      List<T> rows,
      BatchFiller<T> filler,
      BufferAllocator allocator,
      ServerStreamListener listener) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      listener.start(root);
      int from = 0;
      do {
        if (listener.isCancelled()) {
          return;
        }
        int to = Math.min(rows.size(), from + BATCH_ROWS);
        root.allocateNew();
        filler.fill(root, rows.subList(from, to));
        listener.putNext();
        from = to;
      } while (from < rows.size());
      listener.completed();
    }
  }
}
