package dev.lake.flight.spool;

import dev.lake.flight.limits.QueryLimitException;
import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** A PollFlightInfo result would exceed the spool's quota (node-wide or the user's). RESOURCE_EXHAUSTED. */
public final class SpoolQuotaException extends QueryLimitException implements CodedFailure {
  public SpoolQuotaException(String message) {
    super(message);
  }

  @Override
  public ErrorCode errorCode() {
    return ErrorCode.RESOURCE_EXHAUSTED;
  }
}
