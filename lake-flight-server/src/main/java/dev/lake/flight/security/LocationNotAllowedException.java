package dev.lake.flight.security;

import dev.lake.engine.EngineException;

/** An engine operation on a location outside the data root. Maps to INVALID_ARGUMENT; nothing was touched. */
public class LocationNotAllowedException extends EngineException {
  public LocationNotAllowedException(String message) {
    super(message, null);
  }
}
