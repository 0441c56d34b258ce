package dev.lake.engine;

/** A failure inside the table engine; subclasses say what happened. */
public class EngineException extends RuntimeException {
  public EngineException(String message, Throwable cause) {
    super(message, cause);
  }
}
