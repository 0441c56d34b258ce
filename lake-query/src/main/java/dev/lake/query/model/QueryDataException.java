package dev.lake.query.model;

import dev.lake.registry.error.ErrorCode;

/**
 * A statement failed on its data while it ran: a division by zero, an integer overflow, a string that does not cast
 * to the type asked for, a function argument out of its domain ({@code LN(0)}). The client's statement is at fault:
 * INVALID_ARGUMENT. The message speaks SQL ("division by zero", "cannot cast 'abc' to BIGINT"), never Java.
 */
public class QueryDataException extends QueryExecutionException {
  public QueryDataException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INVALID_ARGUMENT;
  }
}
