package dev.lake.engine;

import dev.lake.registry.error.ErrorCode;

/** The data given does not fit the table (schema, nulls in a NOT NULL column, unsupported type). */
public class IncompatibleDataException extends EngineException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INVALID_ARGUMENT;
  }

  public IncompatibleDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
