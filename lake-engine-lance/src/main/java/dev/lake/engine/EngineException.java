package dev.lake.engine;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * A failure inside the table engine; subclasses say what happened and state their status. The base type itself is
 * a bug (INTERNAL).
 */
public class EngineException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INTERNAL;
  }

  public EngineException(String message, Throwable cause) {
    super(message, cause);
  }
}
