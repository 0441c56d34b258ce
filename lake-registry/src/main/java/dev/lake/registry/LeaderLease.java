package dev.lake.registry;

import java.time.Instant;
import java.util.Objects;

/**
 * The leader lease item. Acquire, renew and take-over are conditional writes of this item; every take-over
 * increments {@code term}. {@code expiresAt} is wall-clock and advisory for other nodes' campaigns; the holder's
 * own write gate runs on its monotonic clock.
 */
public record LeaderLease(String holderId, String internalAddress, long term, Instant expiresAt) {
  public LeaderLease {
    Objects.requireNonNull(holderId, "holderId");
    Objects.requireNonNull(internalAddress, "internalAddress");
    Objects.requireNonNull(expiresAt, "expiresAt");
    if (term < 1) throw new IllegalArgumentException("term must be >= 1, was " + term);
  }

  public LeaseFence fence() {
    return new LeaseFence(holderId, term);
  }
}
