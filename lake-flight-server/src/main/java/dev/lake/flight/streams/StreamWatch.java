package dev.lake.flight.streams;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import io.grpc.Context;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What the guard saw of one DoPut stream, for the server thread that reads it: whether its descriptor and schema
 * arrived, and why the stream failed (a refused message, the client's cancel or its end before the schema). The
 * reader waits here, bounded by the first-message deadline, instead of in Arrow's reader, which waits forever for a
 * message the client never sends. Thread-safe.
 */
public final class StreamWatch {
  /** How the guard hands a call's watch to the Flight middleware that exposes it to the producer. */
  static final Context.Key<StreamWatch> CONTEXT = Context.key("lake-stream-watch");

  private final Consumer<LakeException> refuse;
  private boolean descriptor;
  private boolean schema;
  private LakeException failure;

  /** @param refuse answers the call with a failure now (the guard's once-only close) */
  StreamWatch(Consumer<LakeException> refuse) {
    this.refuse = refuse;
  }

  /** The watch of the DoPut the current gRPC context belongs to, if the guard is installed. */
  public static Optional<StreamWatch> current() {
    return Optional.ofNullable(CONTEXT.get());
  }

  synchronized void descriptorArrived() {
    descriptor = true;
    notifyAll();
  }

  synchronized void schemaArrived() {
    schema = true;
    notifyAll();
  }

  /** Refuses the stream: the client gets {@code failure} now; the waiting reader fails with it. */
  void refuse(LakeException failure) {
    if (fail(failure)) {
      refuse.accept(failure);
    }
  }

  /** Records why the stream cannot go on; true for the first failure. */
  synchronized boolean fail(LakeException e) {
    if (failure != null) {
      return false;
    }
    failure = e;
    notifyAll();
    return true;
  }

  public synchronized Optional<LakeException> failure() {
    return Optional.ofNullable(failure);
  }

  /** Waits until the stream's descriptor arrived; fails at the deadline or when the stream failed first. */
  public void awaitDescriptor(Duration timeout) {
    await(timeout, true, "no flight descriptor");
  }

  /** Waits until the stream's schema arrived; fails at the deadline or when the stream failed first. */
  public void awaitSchema(Duration timeout) {
    await(timeout, false, "no schema");
  }

  private synchronized void await(Duration timeout, boolean forDescriptor, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (failure == null && !(forDescriptor ? descriptor : schema)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          LakeException late = new LakeException(ErrorCode.DEADLINE_EXCEEDED, what + " arrived within "
              + timeout.toMillis() + " ms (ingest.first-message-timeout): the stream was closed and nothing was "
              + "written; send the descriptor and the schema first");
          failure = late;
          throw late;
        }
        wait(Math.max(1, left / 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeException(ErrorCode.CANCELLED, "the server stopped while waiting for the stream");
    }
    if (failure != null) {
      throw failure;
    }
  }
}
