package dev.lake.flight.limits;

/** The node runs as many queries as it may and its queue is full. Maps to RESOURCE_EXHAUSTED. */
public class QueryLimitException extends RuntimeException {
  public QueryLimitException(String message) {
    super(message);
  }
}
