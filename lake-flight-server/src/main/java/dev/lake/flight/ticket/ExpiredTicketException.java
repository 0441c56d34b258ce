package dev.lake.flight.ticket;

/** A genuine ticket past its lifetime. Maps to FAILED_PRECONDITION: run the query again. */
public class ExpiredTicketException extends RuntimeException {
  public ExpiredTicketException(String message) {
    super(message);
  }
}
