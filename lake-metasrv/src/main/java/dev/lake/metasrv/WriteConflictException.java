package dev.lake.metasrv;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** A concurrent writer changed the table under this write; nothing was acknowledged. Maps to ABORTED (retry). */
public class WriteConflictException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.ABORTED;
  }

  public WriteConflictException(String message) {
    super(message);
  }

  public WriteConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
