package dev.lake.flight.metrics;

import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WARN line per query that ran at least {@code log.slow-query-threshold}: query id, user, duration, rows, outcome
 * and the SQL (whitespace collapsed, truncated to {@value #MAX_SQL} characters). Its logger is this class, so it can
 * be routed or silenced on its own.
 */
public final class SlowQueryLog {
  static final int MAX_SQL = 500;
  private static final Logger LOG = LoggerFactory.getLogger(SlowQueryLog.class);
  private final Optional<Duration> threshold;

  public SlowQueryLog(Optional<Duration> threshold) {
    this.threshold = threshold;
  }

  /** Logs {@code query} when it was slow; returns whether it did. */
  public boolean report(QueryRecord query) {
    if (threshold.isEmpty() || query.duration().compareTo(threshold.get()) < 0) {
      return false;
    }
    LOG.warn("slow query queryId={} user={} durationMs={} rows={} outcome={} sql={}", query.queryId(), query.user(),
        query.duration().toMillis(), query.rows(), query.outcome(), sql(query.sql()));
    return true;
  }

  static String sql(String sql) {
    String oneLine = sql.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= MAX_SQL ? oneLine : oneLine.substring(0, MAX_SQL) + "...(" + oneLine.length()
        + " chars)";
  }
}
