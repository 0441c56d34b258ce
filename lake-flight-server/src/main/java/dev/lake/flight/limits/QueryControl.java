package dev.lake.flight.limits;

import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One DoGet while it runs: the only path to its stream listener, and the switch that stops it.
 *
 * <p>The query's own thread writes batches; a watchdog (timeout), the client's cancel and {@code CancelFlightInfo}
 * may {@link #stop} it from other threads at any moment. Every listener call is serialized here, and once the call
 * is answered (completed, failed or stopped) nothing else reaches the listener. Stopping answers the client at once
 * (DEADLINE_EXCEEDED, CANCELLED) and interrupts the query's thread if it is blocked where an interrupt is safe to
 * deliver (waiting for a slot, or inside the source's {@code loadNextBatch}); the thread then unwinds, closing the
 * query's readers, Lance handles and memory, and gives back its slot.
 */
public final class QueryControl implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueryControl.class);

  private final String queryId;
  private final ServerStreamListener listener;
  private final Function<Throwable, RuntimeException> toStatus;
  private final Admission admission;
  private final long deadlineNanos;
  private final Runnable onClose;
  private final Object lock = new Object();
  private Thread worker;
  private boolean interruptible;
  private boolean answered;
  private RuntimeException stopReason;
  private Admission.Slot slot;
  private ScheduledFuture<?> watchdog;
  private final java.util.List<java.util.function.Consumer<RuntimeException>> onStop = new java.util.ArrayList<>();

  QueryControl(String queryId, ServerStreamListener listener, Function<Throwable, RuntimeException> toStatus,
      Admission admission, long deadlineNanos, Runnable onClose) {
    this.queryId = queryId;
    this.listener = listener;
    this.toStatus = toStatus;
    this.admission = admission;
    this.deadlineNanos = deadlineNanos;
    this.onClose = onClose;
    this.worker = Thread.currentThread();
  }

  public String queryId() {
    return queryId;
  }

  void watchdog(ScheduledFuture<?> future) {
    synchronized (lock) {
      this.watchdog = future;
    }
  }

  /**
   * Waits for an admission slot (the query's timeout already runs).
   *
   * @throws QueryLimitException when the node is full and its queue too
   * @throws QueryTimeoutException when the timeout passed while waiting
   */
  public void admit() throws Exception {
    Admission.Slot taken = interruptibly(() -> admission.acquire(deadlineNanos));
    synchronized (lock) {
      slot = taken;
    }
  }

  /**
   * Runs {@code work} (a step that may block: waiting for a slot, producing the next batch) so that {@link #stop}
   * may interrupt it. Throws the stop reason when the query was stopped before, during or right after it.
   */
  public <T> T interruptibly(Callable<T> work) throws Exception {
    synchronized (lock) {
      checkStopped();
      worker = Thread.currentThread();
      interruptible = true;
    }
    try {
      return work.call();
    } catch (InterruptedException e) {
      synchronized (lock) {
        if (stopReason != null) {
          throw stopReason;
        }
      }
      throw e;
    } finally {
      synchronized (lock) {
        interruptible = false;
        if (stopReason != null) {
          Thread.interrupted(); // an interrupt meant for the work just finished must not outlive it
        }
      }
      checkStopped();
    }
  }

  /**
   * Calls {@code listener} with the stop reason when the query is stopped (at once if it was): how the work itself
   * learns it must stop (the query's stop flag, polled in every loop of planning and execution).
   */
  public void onStop(java.util.function.Consumer<RuntimeException> listener) {
    RuntimeException already;
    synchronized (lock) {
      already = stopReason;
      if (already == null) {
        onStop.add(listener);
      }
    }
    if (already != null) {
      listener.accept(already);
    }
  }

  /** Throws the reason the query was stopped, if it was. */
  public void checkStopped() {
    synchronized (lock) {
      if (stopReason != null) {
        throw stopReason;
      }
    }
  }

  public boolean isStopped() {
    synchronized (lock) {
      return stopReason != null;
    }
  }

  // ---- the listener, serialized ----

  public void start(VectorSchemaRoot root) {
    synchronized (lock) {
      checkStopped();
      listener.start(root);
    }
  }

  public boolean isReady() {
    synchronized (lock) {
      return listener.isReady();
    }
  }

  public boolean isCancelled() {
    return listener.isCancelled();
  }

  public void putNext() {
    synchronized (lock) {
      checkStopped();
      listener.putNext();
    }
  }

  public void completed() {
    synchronized (lock) {
      checkStopped();
      if (!answered) {
        answered = true;
        listener.completed();
      }
    }
  }

  /** Answers the call with {@code failure}'s status, unless it was already answered (e.g. stopped). */
  public void fail(Throwable failure) {
    synchronized (lock) {
      if (answered) {
        LOG.debug("query failed after it was answered queryId={} error={}", queryId, failure.toString());
        return;
      }
      answered = true;
      send(toStatus.apply(failure));
    }
  }

  /**
   * Stops the query with {@code reason} ({@link QueryTimeoutException}, {@link QueryCancelledException}): answers
   * the client now and interrupts the query's thread where that is safe. Returns false when the query had already
   * ended or been stopped.
   */
  public boolean stop(RuntimeException reason) {
    synchronized (lock) {
      if (answered || stopReason != null) {
        return false;
      }
      stopReason = reason;
      answered = true;
      send(toStatus.apply(reason));
      if (interruptible && worker != null) {
        worker.interrupt();
      }
    }
    for (java.util.function.Consumer<RuntimeException> listener : onStop) {
      listener.accept(reason);
    }
    LOG.info("query stopped queryId={} reason={}", queryId, reason.getMessage());
    return true;
  }

  private void send(RuntimeException status) {
    try {
      listener.error(status);
    } catch (RuntimeException e) {
      LOG.debug("answering a query's call failed (the client may be gone) queryId={} error={}", queryId,
          e.toString());
    }
  }

  /** Gives back the slot, stops the watchdog and leaves the registry. Call after the query's resources are closed. */
  @Override
  public void close() {
    Admission.Slot held;
    synchronized (lock) {
      held = slot;
      slot = null;
      if (watchdog != null) {
        watchdog.cancel(false);
      }
      interruptible = false;
      if (stopReason != null && worker == Thread.currentThread()) {
        Thread.interrupted();
      }
    }
    if (held != null) {
      held.close();
    }
    onClose.run();
  }
}
