package dev.lake.metasrv;

import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded single-node topology: the one process takes the lease at start-up with term + 1 and is the
 * leader for as long as it runs. The registry still checks the fence on every mutation, so a second process
 * started on the same registry (which takes term + 2) deposes this one.
 */
public final class SingleNodeLeadership implements Leadership {
  private static final Logger LOG = LoggerFactory.getLogger(SingleNodeLeadership.class);
  /** Far enough to mean "never expires" yet representable by every backend. */
  private static final Instant FOREVER = Instant.parse("9999-12-31T23:59:59Z");
  private final LeaseFence fence;

  private SingleNodeLeadership(LeaseFence fence) {
    this.fence = fence;
  }

  /** Takes the lease: reads the current item and conditionally writes holder = nodeId with the next term. */
  public static SingleNodeLeadership takeLease(MetaStore store, String nodeId, String internalAddress) {
    Objects.requireNonNull(nodeId, "nodeId");
    Optional<LeaderLease> current = store.lease();
    long term = current.map(LeaderLease::term).orElse(0L) + 1;
    LeaderLease next = new LeaderLease(nodeId, internalAddress, term, FOREVER);
    store.writeLease(current, next);
    LOG.info("lease taken node={} term={} registry={}", nodeId, term, store.describe());
    return new SingleNodeLeadership(next.fence());
  }

  @Override
  public LeaseFence enter() {
    return fence;
  }

  @Override
  public boolean isLeader() {
    return true;
  }
}
