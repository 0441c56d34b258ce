package dev.lake.flight.limits;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.arrow.flight.FlightStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds how long a server thread waits for a client's next batch on an incoming stream (bulk ingest, forwarded
 * ingest, prepared-statement parameters): {@code ingest.idle-timeout}. A client that stops sending without finishing
 * or cancelling would otherwise hold its server thread (and the batch it sent last) until its connection goes away.
 *
 * <p>Arrow's server-side {@link FlightStream} cannot be cancelled and ending the call does not wake a reader blocked
 * in {@link FlightStream#next()}; interrupting the waiting thread does. So every wait goes through {@link #next}: a
 * watchdog finds waits older than the timeout, marks them abandoned and interrupts their thread; the wait then
 * fails with {@link IngestIdleException} (the interrupt is consumed, whether the batch arrived at the last moment
 * or not). Nothing is committed: the write fails like any broken stream.
 */
public final class IdleStreams implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IdleStreams.class);

  private final long timeoutNanos;
  private final LongSupplier nanoTime;
  private final Set<Wait> waits = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService watchdog;

  /**
   * @param timeout how long one wait for the next batch may last
   * @param nanoTime the monotonic clock waits are measured with; the watchdog looks every quarter of the timeout
   *     (at most every second), so a wait is stopped at most that long after its timeout
   */
  public IdleStreams(Duration timeout, LongSupplier nanoTime) {
    this.timeoutNanos = timeout.toNanos();
    this.nanoTime = nanoTime;
    this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "lake-idle-streams");
      t.setDaemon(true);
      return t;
    });
    long period = Math.max(1, Math.min(1_000, timeout.toMillis() / 4));
    watchdog.scheduleWithFixedDelay(this::stopIdleWaits, period, period, TimeUnit.MILLISECONDS);
  }

  /** {@code stream.next()}, failing with {@link IngestIdleException} when no batch came within the timeout. */
  public boolean next(FlightStream stream) {
    Wait wait = new Wait(Thread.currentThread(), nanoTime.getAsLong());
    waits.add(wait);
    boolean more;
    RuntimeException failure = null;
    try {
      more = stream.next();
    } catch (RuntimeException e) {
      failure = e;
      more = false;
    } finally {
      waits.remove(wait);
    }
    if (wait.finish()) {
      Thread.interrupted(); // the watchdog's interrupt was meant for this wait only
      throw new IngestIdleException("no data arrived on the stream for " + Duration.ofNanos(timeoutNanos)
          + " (ingest.idle-timeout): it was abandoned and nothing was committed", failure);
    }
    if (failure != null) {
      throw failure;
    }
    return more;
  }

  void stopIdleWaits() {
    long now = nanoTime.getAsLong();
    for (Wait wait : waits) {
      if (now - wait.since >= timeoutNanos && wait.abandon()) {
        LOG.warn("stream idle for {} ms (ingest.idle-timeout): stopping its reader thread={}",
            (now - wait.since) / 1_000_000, wait.thread.getName());
      }
    }
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
  }

  /** One thread's wait for a batch; abandoned at most once, and only while it still waits. */
  private static final class Wait {
    private final Thread thread;
    private final long since;
    private boolean finished;
    private boolean abandoned;

    Wait(Thread thread, long since) {
      this.thread = thread;
      this.since = since;
    }

    /** Interrupts the waiting thread unless its wait already ended; true when it did so. */
    synchronized boolean abandon() {
      if (finished || abandoned) {
        return false;
      }
      abandoned = true;
      thread.interrupt();
      return true;
    }

    /** Ends the wait; true when the watchdog abandoned it. */
    synchronized boolean finish() {
      finished = true;
      return abandoned;
    }
  }
}
