package dev.lake.flight.ticket;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** A handle or ticket that is malformed or whose signature does not verify. Maps to INVALID_ARGUMENT. */
public class InvalidTicketException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INVALID_ARGUMENT;
  }

  public InvalidTicketException(String message) {
    super(message);
  }
}
