package dev.lake.engine;

/** A create found a dataset already at its location (locations are never reused). */
public class LocationExistsException extends EngineException {
  public LocationExistsException(String location) {
    super("a dataset already exists at " + location, null);
  }
}
