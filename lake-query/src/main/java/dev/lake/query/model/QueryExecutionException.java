package dev.lake.query.model;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * An accepted statement failed while it was planned or run because of a bug in lake or Calcite: INTERNAL (the client
 * gets an error id, the server log the details). Errors evaluating SQL on the data are its subtype
 * {@link dev.lake.query.model.QueryDataException} (INVALID_ARGUMENT). Not for unknown tables
 * ({@link dev.lake.registry.TableNotFoundException}), rejected statements
 * ({@link dev.lake.query.model.QueryRejectedException}), registry outages or storage failures (their own types pass through).
 */
public class QueryExecutionException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INTERNAL;
  }

  public QueryExecutionException(String message, Throwable cause) {
    super(message, cause);
  }
}
