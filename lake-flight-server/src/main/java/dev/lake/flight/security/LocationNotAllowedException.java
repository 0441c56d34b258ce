package dev.lake.flight.security;

import dev.lake.registry.error.ErrorCode;
import dev.lake.engine.EngineException;

/** An engine operation on a location outside the data root. Maps to INVALID_ARGUMENT; nothing was touched. */
public class LocationNotAllowedException extends EngineException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INVALID_ARGUMENT;
  }

  public LocationNotAllowedException(String message) {
    super(message, null);
  }
}
