package dev.lake.registry;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * A name or key a client sent (a table name, an idempotency key) breaks lake's rules; the message says which rule.
 * INVALID_ARGUMENT. An {@link IllegalArgumentException} too, for the value types that validate with it.
 */
public class InvalidNameException extends IllegalArgumentException implements CodedFailure {
  public InvalidNameException(String message) {
    super(message);
  }

  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INVALID_ARGUMENT;
  }
}
