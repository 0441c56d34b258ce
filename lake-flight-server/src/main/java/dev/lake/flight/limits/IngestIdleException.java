package dev.lake.flight.limits;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** No batch arrived on an incoming stream within {@code ingest.idle-timeout}; it was stopped. DEADLINE_EXCEEDED. */
public class IngestIdleException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.DEADLINE_EXCEEDED;
  }

  public IngestIdleException(String message, Throwable cause) {
    super(message, cause);
  }
}
