package dev.lake.engine;

import dev.lake.registry.error.ErrorCode;

/** The storage under a table failed (I/O, unreachable store); retry may succeed. */
public class StorageException extends EngineException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.UNAVAILABLE;
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
