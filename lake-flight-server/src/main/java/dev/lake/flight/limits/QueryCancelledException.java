package dev.lake.flight.limits;

/** A query stopped because its client or a CancelFlightInfo asked. Maps to CANCELLED. */
public class QueryCancelledException extends RuntimeException {
  public QueryCancelledException(String message) {
    super(message);
  }
}
