package dev.lake.engine;

/**
 * Reading the caller's input stream failed while staging (the producer threw, the client went away). Nothing was
 * committed; partially written data files are orphans for the sweep. The producer's own exception is the cause
 * when the engine could capture it.
 */
public class DataStreamException extends EngineException {
  public DataStreamException(String message, Throwable cause) {
    super(message, cause);
  }
}
