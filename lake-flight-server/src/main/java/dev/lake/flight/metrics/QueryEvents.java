package dev.lake.flight.metrics;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Where the producer reports finished queries and ingests: metrics, and the slow-query log. Time comes from an
 * injected monotonic ticker.
 */
public final class QueryEvents {
  private final LakeMetrics metrics;
  private final SlowQueryLog slowQueries;
  private final LongSupplier ticker;

  /** @param ticker monotonic nanoseconds */
  public QueryEvents(LakeMetrics metrics, SlowQueryLog slowQueries, LongSupplier ticker) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.slowQueries = Objects.requireNonNull(slowQueries, "slowQueries");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /** Now, on the ticker (pass it back to {@link #since}). */
  public long start() {
    return ticker.getAsLong();
  }

  public Duration since(long start) {
    return Duration.ofNanos(Math.max(0, ticker.getAsLong() - start));
  }

  public void queryFinished(QueryRecord query) {
    metrics.queryFinished(query);
    slowQueries.report(query);
  }

  /** Rows and bytes of one result batch on its way to a client. */
  public void sent(long rows, long bytes) {
    metrics.sent(rows, bytes);
  }

  public void ingestFinished(String outcome, long start) {
    metrics.ingestFinished(outcome, since(start));
  }

  public void ingested(long rows, long bytes) {
    metrics.ingested(rows, bytes);
  }
}
