package dev.lake.registry;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Takes the lease at term + 1 whatever its current holder: the start-up step of the single-process topology
 * (docs/design.md invariant 5), where the process is the only candidate. Every mutation of a previous holder then
 * fails its lease check.
 */
public final class LeaseTakeover {
  private static final int MAX_ATTEMPTS = 5;

  private LeaseTakeover() {}

  /**
   * Reads the lease and conditionally writes {@code holderId} at the next term; re-reads and tries again (at
   * most 5 times) when another writer moved the lease in between.
   *
   * @return the lease now held
   * @throws RegistryConflictException when the lease kept moving under concurrent take-overs
   */
  public static LeaderLease takeOver(MetaStore store, String holderId, String internalAddress, Instant expiresAt) {
    Objects.requireNonNull(store, "store");
    RegistryConflictException last = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      Optional<LeaderLease> current = store.lease();
      long term = current.map(LeaderLease::term).orElse(0L) + 1;
      LeaderLease next = new LeaderLease(holderId, internalAddress, term, expiresAt);
      try {
        store.writeLease(current, next);
        return next;
      } catch (RegistryConflictException e) {
        last = e;
      }
    }
    throw new RegistryConflictException("could not take the lease of " + store.describe() + " for '" + holderId
        + "' in " + MAX_ATTEMPTS + " attempts: other nodes keep taking it over (" + last.getMessage()
        + "); is a second process campaigning on the same registry?");
  }
}
