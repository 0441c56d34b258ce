package dev.lake.flight.spool;

/**
 * The results store cannot be reached, or the node running a poll job stopped answering. Maps to UNAVAILABLE
 * (retry; for a lost job: run the query again).
 */
public class SpoolUnavailableException extends RuntimeException {
  public SpoolUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
