package dev.lake.flight.limits;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** The node runs as many queries as it may and its queue is full. Maps to RESOURCE_EXHAUSTED. */
public class QueryLimitException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.RESOURCE_EXHAUSTED;
  }

  public QueryLimitException(String message) {
    super(message);
  }
}
