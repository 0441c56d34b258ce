package dev.lake.engine;

import dev.lake.registry.error.ErrorCode;

/** No dataset (or no such version) at a location. */
public class DatasetNotFoundException extends EngineException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.NOT_FOUND;
  }

  public DatasetNotFoundException(String message, Throwable cause) {
    super(message, cause);
  }
}
