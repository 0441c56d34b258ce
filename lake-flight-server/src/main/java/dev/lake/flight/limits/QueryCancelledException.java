package dev.lake.flight.limits;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** A query stopped because its client or a CancelFlightInfo asked. Maps to CANCELLED. */
public class QueryCancelledException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.CANCELLED;
  }

  public QueryCancelledException(String message) {
    super(message);
  }
}
