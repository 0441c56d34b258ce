package dev.lake.flight.limits;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** One user already runs (or waits for) as many queries as a user may. RESOURCE_EXHAUSTED. */
public final class UserLimitException extends QueryLimitException implements CodedFailure {
  public UserLimitException(String message) {
    super(message);
  }

  @Override
  public ErrorCode errorCode() {
    return ErrorCode.RESOURCE_EXHAUSTED;
  }
}
