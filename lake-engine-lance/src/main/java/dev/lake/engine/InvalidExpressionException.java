package dev.lake.engine;

import dev.lake.registry.error.ErrorCode;

/**
 * A filter, column list or SQL text handed to the engine is not valid for the table (syntax error, unknown column,
 * wrong type). The caller's input is at fault: answer INVALID_ARGUMENT, do not retry.
 */
public class InvalidExpressionException extends EngineException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INVALID_ARGUMENT;
  }

  public InvalidExpressionException(String message, Throwable cause) {
    super(message, cause);
  }
}
