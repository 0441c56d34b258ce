package dev.lake.registry;

/** A conditional write found a different state than expected; nothing was written. Re-read, then decide. */
public class RegistryConflictException extends RegistryException {
  public RegistryConflictException(String message) {
    super(message, null);
  }
}
