package dev.lake.flight.storage;

/**
 * A start-up check failed: the node cannot use its storage or registry as configured. The message names what is
 * missing (a permission, a table, a capability of the store, a reachable endpoint) and the configuration key or
 * action that fixes it; it never carries a secret.
 */
public class StartupCheckException extends IllegalStateException {
  public StartupCheckException(String message) {
    super(message);
  }

  public StartupCheckException(String message, Throwable cause) {
    super(message, cause);
  }
}
