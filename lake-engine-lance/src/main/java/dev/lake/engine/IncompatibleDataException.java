package dev.lake.engine;

/** The data given does not fit the table (schema, nulls in a NOT NULL column, unsupported type). */
public class IncompatibleDataException extends EngineException {
  public IncompatibleDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
