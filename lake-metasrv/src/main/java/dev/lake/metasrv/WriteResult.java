package dev.lake.metasrv;

import dev.lake.registry.TableRegistration;
import java.util.Objects;

/**
 * An acknowledged write.
 *
 * @param registration the registration the write produced (for read-your-writes)
 * @param rowCount rows written
 * @param replayed true when an idempotency key matched an earlier write and this is its original outcome
 */
public record WriteResult(TableRegistration registration, long rowCount, boolean replayed) {
  public WriteResult {
    Objects.requireNonNull(registration, "registration");
  }
}
