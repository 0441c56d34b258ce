package dev.lake.registry;

/** The backend could not be reached or failed; nothing was written (or, for reads, nothing is known). */
public class RegistryUnavailableException extends RegistryException {
  public RegistryUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
