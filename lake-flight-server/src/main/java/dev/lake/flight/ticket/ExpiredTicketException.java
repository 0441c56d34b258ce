package dev.lake.flight.ticket;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** A genuine ticket past its lifetime. Maps to FAILED_PRECONDITION: run the query again. */
public class ExpiredTicketException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.FAILED_PRECONDITION;
  }

  public ExpiredTicketException(String message) {
    super(message);
  }
}
