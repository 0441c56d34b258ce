package dev.lake.registry;

/** The idempotency key was already used for this generation; {@link #original()} is the first outcome. */
public class DuplicateIdempotencyKeyException extends RegistryConflictException {
  private final IdempotencyRecord original;

  public DuplicateIdempotencyKeyException(IdempotencyRecord original) {
    super("idempotency key '" + original.key() + "' was already applied to '" + original.table()
        + "' at version " + original.version());
    this.original = original;
  }

  public IdempotencyRecord original() {
    return original;
  }
}
