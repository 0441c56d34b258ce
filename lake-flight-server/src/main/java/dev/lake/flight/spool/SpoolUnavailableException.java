package dev.lake.flight.spool;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * The results store cannot be reached, or the node running a poll job stopped answering. Maps to UNAVAILABLE
 * (retry; for a lost job: run the query again).
 */
public class SpoolUnavailableException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.UNAVAILABLE;
  }

  public SpoolUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
