package dev.lake.flight;

import dev.lake.flight.limits.QueryControl;
import dev.lake.flight.limits.WriteStall;
import dev.lake.flight.metrics.QueryEvents;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a result batch by batch as it is produced. Backpressure: before each batch wait until the transport is
 * ready (polling {@code isReady()}, which cannot stall the way a callback strategy inside a synchronous
 * getStream can), at most {@code query.write-stall-timeout} at a stretch ({@link WriteStall}); a cancelled call
 * stops the producer at once. Every listener call goes through the
 * query's {@link QueryControl}, so a timeout or a cancel from another thread can answer the call meanwhile.
 */
final class ResultStreamer {
  private static final Logger LOG = LoggerFactory.getLogger(ResultStreamer.class);
  private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
  private static final long DRAIN_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

  private ResultStreamer() {}

  /**
   * Streams {@code reader} through {@code control} and completes the call; the caller closes the reader. Producing a
   * batch runs interruptibly (a stop may interrupt it); a stopped query ends with its stop reason thrown.
   */
  static void stream(ArrowReader reader, QueryControl control, Sent sent, WriteStall stall) throws Exception {
    stream(reader, control, sent, stall, () -> {});
  }

  /**
   * As {@link #stream(ArrowReader, QueryControl, Sent, WriteStall)}, running {@code beforeCompleting} after the last
   * batch was handed to the call and before the call completes: what it releases is released before the client can
   * see the end of the stream (and send its next query).
   */
  static void stream(ArrowReader reader, QueryControl control, Sent sent, WriteStall stall,
      Runnable beforeCompleting) throws Exception {
    VectorSchemaRoot root = control.interruptibly(reader::getVectorSchemaRoot);
    control.start(root);
    while (control.interruptibly(reader::loadNextBatch)) {
      sent.add(root);
      stall.awaitReady(control); // a client that stops reading is stopped at query.write-stall-timeout
      control.putNext();
    }
    beforeCompleting.run();
    control.completed();
  }

  /**
   * What a stream sent so far: rows and Arrow buffer bytes (read by the query's own thread only). Each batch is also
   * counted in the node's meters as it goes out, so a long query shows up while it runs.
   */
  static final class Sent {
    private final QueryEvents events;
    private long rows;
    private long bytes;

    Sent(QueryEvents events) {
      this.events = events;
    }

    void add(VectorSchemaRoot batch) {
      long batchBytes = 0;
      for (FieldVector vector : batch.getFieldVectors()) {
        batchBytes += vector.getBufferSize();
      }
      rows += batch.getRowCount();
      bytes += batchBytes;
      events.sent(batch.getRowCount(), batchBytes);
    }

    long rows() {
      return rows;
    }

    long bytes() {
      return bytes;
    }
  }

  /**
   * Closes a query's allocator once gRPC has written the batches still queued for the client (each holds a
   * reference to its buffers until it is on the wire). Bounded: past the limit the allocator is closed anyway and
   * the leak is logged, never thrown at the client.
   */
  static void closeWhenDrained(BufferAllocator allocator) {
    long deadline = System.nanoTime() + DRAIN_WAIT_NANOS;
    while (allocator.getAllocatedMemory() > 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(PARK_NANOS);
    }
    try {
      allocator.close();
    } catch (IllegalStateException e) {
      LOG.warn("query memory still referenced after the stream ended allocator={} bytes={}", allocator.getName(),
          allocator.getAllocatedMemory());
    }
  }
}
