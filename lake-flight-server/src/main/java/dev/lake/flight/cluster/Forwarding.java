package dev.lake.flight.cluster;

import dev.lake.flight.auth.Identity;
import dev.lake.flight.limits.IdleStreams;
import dev.lake.metasrv.ClusterLeadership;
import dev.lake.registry.LeaderLease;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;

/**
 * Where a write runs. On the leader, on a single node, and while no other leader is known, it runs here (and the
 * local write gate answers UNAVAILABLE if this node may not write). On a follower it is forwarded to the leader's
 * internal endpoint named in the lease item, as this node's last campaign read it.
 */
public final class Forwarding {
  private static final Forwarding NONE = new Forwarding(null, null);
  private final ClusterLeadership leadership;
  private final LeaderClient client;

  /** The leader to forward to: its node id and internal endpoint ({@code host:port}). */
  public record Target(String nodeId, String address) {
    public Target {
      Objects.requireNonNull(nodeId, "nodeId");
      Objects.requireNonNull(address, "address");
    }
  }

  Forwarding(ClusterLeadership leadership, LeaderClient client) {
    this.leadership = leadership;
    this.client = client;
  }

  /** The single-node topology: every write runs here. */
  public static Forwarding none() {
    return NONE;
  }

  /** The leader a write must be forwarded to; empty when it runs here. */
  public Optional<Target> target() {
    if (leadership == null || leadership.isLeader()) {
      return Optional.empty();
    }
    Optional<LeaderLease> lease = leadership.observedLease();
    if (lease.isEmpty() || lease.get().holderId().equals(leadership.nodeId())
        || lease.get().internalAddress().isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new Target(lease.get().holderId(), lease.get().internalAddress()));
  }

  /**
   * Forwards an ingest to {@code leader}; if it stalls or fails while the lease moves, it follows the new holder
   * (this node included, through its own internal endpoint) as {@link LeaderClient#ingest} describes.
   */
  public ForwardedWrite ingest(Target leader, Identity caller, CommandStatementIngest command, FlightStream stream,
      IdleStreams idle) {
    return client.ingest(leader, caller.user(), command, stream, idle, this::reread);
  }

  /** The lease holder as the registry says now (a fresh read), as a target; empty when none can be reached. */
  private Optional<Target> reread() {
    return leadership.readLease().filter(l -> !l.internalAddress().isBlank())
        .map(l -> new Target(l.holderId(), l.internalAddress()));
  }

  public byte[] action(Target leader, Identity caller, Action action) {
    return client.action(leader, caller.user(), action);
  }
}
