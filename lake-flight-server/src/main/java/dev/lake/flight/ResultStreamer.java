package dev.lake.flight;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Sends a result batch by batch as it is produced. Backpressure: before each batch wait until the transport is
 * ready (polling {@code isReady()}, which cannot stall the way a callback strategy inside a synchronous
 * getStream can, facts.md); a cancelled call stops the producer at once.
 */
final class ResultStreamer {
  private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

  private ResultStreamer() {}

  /** Streams {@code reader} to {@code listener} and completes it; the caller closes the reader. */
  static void stream(ArrowReader reader, ServerStreamListener listener) throws Exception {
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    listener.start(root);
    while (reader.loadNextBatch()) {
      while (!listener.isReady()) {
        if (listener.isCancelled()) {
          throw CallStatus.CANCELLED.withDescription("the client cancelled the query").toRuntimeException();
        }
        LockSupport.parkNanos(PARK_NANOS);
      }
      if (listener.isCancelled()) {
        throw CallStatus.CANCELLED.withDescription("the client cancelled the query").toRuntimeException();
      }
      listener.putNext();
    }
    listener.completed();
  }
}
