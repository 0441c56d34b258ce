package dev.lake.flight.limits;

/** No batch arrived on an incoming stream within {@code ingest.idle-timeout}; it was stopped. DEADLINE_EXCEEDED. */
public class IngestIdleException extends RuntimeException {
  public IngestIdleException(String message, Throwable cause) {
    super(message, cause);
  }
}
