package dev.lake.engine;

import dev.lake.registry.error.ErrorCode;

/** A create found a dataset already at its location (locations are never reused). */
public class LocationExistsException extends EngineException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.ABORTED;
  }

  public LocationExistsException(String location) {
    super("a dataset already exists at " + location, null);
  }
}
