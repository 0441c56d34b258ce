package dev.lake.metasrv;

import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistryConflictException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One campaign's registry I/O: read the lease item, then at most one conditional write of it. Renew, acquire and
 * take-over are each a single {@link MetaStore#writeLease} conditioned on the item read (holder and term), so two
 * campaigns can never both win.
 *
 * <ul>
 *   <li><b>Renew</b>: this node's write gate is open at term t ({@code held}) and the item still names it at t: the
 *       same term, a later {@code expiresAt}.
 *   <li><b>Acquire / take over</b> at term + 1: no item yet, or the item's {@code expiresAt} passed on this node's
 *       wall clock, or the item names this node but its gate is closed (it demoted, or restarted). A node that
 *       regains the lease thus always does so in a new term, so a write that passed its gate in an older term can
 *       never commit (its fence names the old term).
 *   <li><b>Follow</b>: another node holds an unexpired lease.
 * </ul>
 */
final class LeaseCampaign {
  private LeaseCampaign() {}

  /** What a campaign found or did. {@code won} is true when {@code lease} is now held by this node. */
  record Outcome(boolean won, Optional<LeaderLease> lease, String action) {
    Outcome {
      Objects.requireNonNull(lease, "lease");
      Objects.requireNonNull(action, "action");
    }
  }

  /**
   * Runs one campaign.
   *
   * @param held the fence of this node's open write gate, if any
   * @param wallNow the wall clock at the start of the campaign; the written lease expires at {@code wallNow +
   *     duration}
   * @throws dev.lake.registry.RegistryException when the registry fails (the caller demotes)
   */
  static Outcome run(MetaStore store, String nodeId, String internalAddress, Optional<LeaseFence> held,
      Instant wallNow, Duration duration) {
    Optional<LeaderLease> current = store.lease();
    Instant expiresAt = wallNow.plus(duration);
    if (held.isPresent() && current.isPresent() && current.get().fence().equals(held.get())) {
      LeaderLease renewed = new LeaderLease(nodeId, internalAddress, held.get().term(), expiresAt);
      return write(store, current, renewed, "renewed");
    }
    if (current.isPresent() && !current.get().holderId().equals(nodeId)
        && current.get().expiresAt().isAfter(wallNow)) {
      return new Outcome(false, current, "following");
    }
    long term = current.map(LeaderLease::term).orElse(0L) + 1;
    LeaderLease next = new LeaderLease(nodeId, internalAddress, term, expiresAt);
    return write(store, current, next, current.isEmpty() ? "acquired" : "took over");
  }

  private static Outcome write(MetaStore store, Optional<LeaderLease> expected, LeaderLease next, String action) {
    try {
      store.writeLease(expected, next);
      return new Outcome(true, Optional.of(next), action);
    } catch (RegistryConflictException e) {
      // Another node wrote the lease between our read and our write: it won this round.
      return new Outcome(false, expected, "lost the race (" + e.getMessage() + ")");
    }
  }
}
