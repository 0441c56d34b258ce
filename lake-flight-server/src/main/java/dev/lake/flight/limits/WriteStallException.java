package dev.lake.flight.limits;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** A client stopped reading a result for longer than {@code query.write-stall-timeout}. DEADLINE_EXCEEDED. */
public final class WriteStallException extends RuntimeException implements CodedFailure {
  public WriteStallException(String message) {
    super(message);
  }

  @Override
  public ErrorCode errorCode() {
    return ErrorCode.DEADLINE_EXCEEDED;
  }
}
