package dev.lake.registry;

import dev.lake.registry.error.ErrorCode;

/** A conditional write found a different state than expected; nothing was written. Re-read, then decide. */
public class RegistryConflictException extends RegistryException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.ABORTED;
  }

  public RegistryConflictException(String message) {
    super(message, null);
  }
}
