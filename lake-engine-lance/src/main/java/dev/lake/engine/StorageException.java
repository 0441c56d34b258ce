package dev.lake.engine;

/** The storage under a table failed (I/O, unreachable store); retry may succeed. */
public class StorageException extends EngineException {
  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
