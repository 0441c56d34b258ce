package dev.lake.registry;

import java.util.Objects;

/**
 * What every registry mutation carries: the holder and term captured when the write passed the write gate. The
 * mutation succeeds only if the lease item still names this holder at this term (docs/design.md invariant 5).
 */
public record LeaseFence(String holderId, long term) {
  public LeaseFence {
    Objects.requireNonNull(holderId, "holderId");
    if (term < 1) throw new IllegalArgumentException("term must be >= 1, was " + term);
  }
}
