package dev.lake.query;

/**
 * An accepted statement failed while it was planned or run: an error evaluating SQL on the data (division by zero,
 * a value out of range, a failed cast) or a bug in lake or Calcite. The message says which, and never carries a
 * stack trace. Not for unknown tables ({@link dev.lake.registry.TableNotFoundException}), rejected statements
 * ({@link QueryRejectedException}), registry outages or storage failures (their own types pass through).
 */
public class QueryExecutionException extends RuntimeException {
  public QueryExecutionException(String message, Throwable cause) {
    super(message, cause);
  }
}
