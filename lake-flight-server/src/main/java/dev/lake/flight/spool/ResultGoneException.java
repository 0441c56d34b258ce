package dev.lake.flight.spool;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** A spooled result or poll job that expired and was deleted (or never existed here). Maps to NOT_FOUND. */
public class ResultGoneException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.NOT_FOUND;
  }

  public ResultGoneException(String message) {
    super(message);
  }
}
