package dev.lake.flight.limits;

/** A query ran (or waited for a slot) past {@code query.timeout}; it was stopped. Maps to DEADLINE_EXCEEDED. */
public class QueryTimeoutException extends RuntimeException {
  public QueryTimeoutException(String message) {
    super(message);
  }
}
