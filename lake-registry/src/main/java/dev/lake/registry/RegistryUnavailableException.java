package dev.lake.registry;

import dev.lake.registry.error.ErrorCode;

/** The backend could not be reached or failed; nothing was written (or, for reads, nothing is known). */
public class RegistryUnavailableException extends RegistryException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.UNAVAILABLE;
  }

  public RegistryUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
