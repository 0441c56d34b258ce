package dev.lake.engine;

/** No dataset (or no such version) at a location. */
public class DatasetNotFoundException extends EngineException {
  public DatasetNotFoundException(String message, Throwable cause) {
    super(message, cause);
  }
}
