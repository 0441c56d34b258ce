package dev.lake.flight.ticket;

/** A handle or ticket that is malformed or whose signature does not verify. Maps to INVALID_ARGUMENT. */
public class InvalidTicketException extends RuntimeException {
  public InvalidTicketException(String message) {
    super(message);
  }
}
