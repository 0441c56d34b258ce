package dev.lake.flight.ticket;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** A genuine ticket issued to another user. Maps to PERMISSION_DENIED. */
public class ForeignTicketException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.PERMISSION_DENIED;
  }

  public ForeignTicketException(String message) {
    super(message);
  }
}
