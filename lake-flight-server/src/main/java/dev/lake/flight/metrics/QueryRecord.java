package dev.lake.flight.metrics;

import java.time.Duration;
import java.util.Objects;

/**
 * One finished query execution (a DoGet), as metrics and the slow-query log see it.
 *
 * @param queryId the id its ticket carries (also in every log line of the query, MDC key {@code queryId})
 * @param user who ran it
 * @param sql its text (the slow-query log truncates it)
 * @param outcome {@code ok}, or the lower-case status code the client got ({@code invalid_argument},
 *     {@code deadline_exceeded}, ...)
 * @param duration from DoGet's start (queueing included) to its last batch or failure
 * @param rows rows sent
 * @param bytes Arrow buffer bytes sent
 */
public record QueryRecord(String queryId, String user, String sql, String outcome, Duration duration, long rows,
    long bytes) {
  public static final String OK = "ok";

  public QueryRecord {
    Objects.requireNonNull(queryId, "queryId");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(duration, "duration");
    if (rows < 0 || bytes < 0) {
      throw new IllegalArgumentException("rows and bytes must be >= 0");
    }
  }
}
