package dev.lake.query.model;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * The statement is refused before it runs: a syntax or validation error, a statement kind the read-only surface
 * does not allow, or a reference to a storage location. Maps to INVALID_ARGUMENT.
 */
public class QueryRejectedException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INVALID_ARGUMENT;
  }

  public QueryRejectedException(String message) {
    super(message);
  }

  public QueryRejectedException(String message, Throwable cause) {
    super(message, cause);
  }
}
