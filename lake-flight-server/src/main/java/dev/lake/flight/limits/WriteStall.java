package dev.lake.flight.limits;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Backpressure with a bound: waits until the transport takes a query's next batch, but no longer than {@code
 * query.write-stall-timeout} in one stretch. A client that stops reading (its window stays full) is stopped with
 * DEADLINE_EXCEEDED, which frees its admission slot, its per-user count and its memory long before {@code
 * query.timeout}.
 */
public final class WriteStall {
  private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
  private final Duration timeout;
  private final LongSupplier ticker;

  /** @param ticker monotonic nanoseconds */
  public WriteStall(Duration timeout, LongSupplier ticker) {
    this.timeout = timeout;
    this.ticker = ticker;
  }

  /**
   * Returns once {@code control}'s transport is ready for another batch.
   *
   * @throws QueryCancelledException when the client cancelled meanwhile
   * @throws WriteStallException when the client read nothing for {@code query.write-stall-timeout}
   */
  public void awaitReady(QueryControl control) {
    long since = 0;
    boolean waiting = false;
    while (!control.isReady()) {
      if (control.isCancelled()) {
        throw new QueryCancelledException("the client cancelled the query");
      }
      control.checkStopped();
      long now = ticker.getAsLong();
      if (!waiting) {
        waiting = true;
        since = now;
      } else if (now - since >= timeout.toNanos()) {
        throw new WriteStallException("the client read nothing of the result for " + QueryLimits.format(timeout)
            + " (query.write-stall-timeout), so the query was stopped to free its slot: read results as they "
            + "arrive, or use PollFlightInfo for results read slowly");
      }
      LockSupport.parkNanos(PARK_NANOS);
    }
  }
}
