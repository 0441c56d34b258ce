package dev.lake.flight.ticket;

/** A genuine ticket issued to another user. Maps to PERMISSION_DENIED. */
public class ForeignTicketException extends RuntimeException {
  public ForeignTicketException(String message) {
    super(message);
  }
}
