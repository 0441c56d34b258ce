package dev.lake.flight.spool;

/** A spooled result or poll job that expired and was deleted (or never existed here). Maps to NOT_FOUND. */
public class ResultGoneException extends RuntimeException {
  public ResultGoneException(String message) {
    super(message);
  }
}
