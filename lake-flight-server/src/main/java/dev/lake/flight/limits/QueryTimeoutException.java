package dev.lake.flight.limits;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** A query ran (or waited for a slot) past {@code query.timeout}; it was stopped. Maps to DEADLINE_EXCEEDED. */
public class QueryTimeoutException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.DEADLINE_EXCEEDED;
  }

  public QueryTimeoutException(String message) {
    super(message);
  }
}
