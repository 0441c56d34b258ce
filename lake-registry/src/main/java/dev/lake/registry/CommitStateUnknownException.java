package dev.lake.registry;

import dev.lake.registry.error.ErrorCode;

/**
 * The outcome of a mutation is unknown: it may have been applied. Callers must not delete anything the mutation
 * would reference, and must re-read (or retry with the same idempotency key) to learn the truth.
 */
public class CommitStateUnknownException extends RegistryException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.UNKNOWN;
  }

  public CommitStateUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
