package dev.lake.metasrv;

/** A concurrent writer changed the table under this write; nothing was acknowledged. Maps to ABORTED (retry). */
public class WriteConflictException extends RuntimeException {
  public WriteConflictException(String message) {
    super(message);
  }

  public WriteConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
