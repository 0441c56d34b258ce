package dev.lake.flight.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.flight.auth.Identity;
import dev.lake.flight.limits.IdleStreams;
import dev.lake.metasrv.ClusterLeadership;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistrationListener;
import dev.lake.registry.TableNames;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;

/**
 * Where a write runs. On the leader, on a single node, and while no other leader is known, it runs here (and the
 * local write gate answers UNAVAILABLE if this node may not write). On a follower it is forwarded to the leader's
 * internal endpoint named in the lease item, as this node's last campaign read it.
 *
 * <p>Read-your-writes on the follower: what the leader's answer says it registered or dropped is told to this
 * node's {@link RegistrationListener} (its catalog) before the answer goes back to the client, as the leader's
 * {@code WriteCoordinator} and {@code Maintenance} tell the leader's own.
 */
public final class Forwarding {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Forwarding NONE = new Forwarding(null, null, null, RegistrationListener.NONE);
  private final ClusterLeadership leadership;
  private final LeaderClient client;
  private final MetaStore store;
  private final RegistrationListener listener;

  /** The leader to forward to: its node id and internal endpoint ({@code host:port}). */
  public record Target(String nodeId, String address) {
    public Target {
      Objects.requireNonNull(nodeId, "nodeId");
      Objects.requireNonNull(address, "address");
    }
  }

  Forwarding(ClusterLeadership leadership, LeaderClient client, MetaStore store, RegistrationListener listener) {
    this.leadership = leadership;
    this.client = client;
    this.store = store;
    this.listener = Objects.requireNonNull(listener, "listener");
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
    ForwardedWrite result = client.ingest(leader, caller.user(), command, stream, idle, this::reread);
    result.registration().ifPresent(listener::registered);
    return result;
  }

  /** The lease holder as the registry says now (a fresh read), as a target; empty when none can be reached. */
  private Optional<Target> reread() {
    return leadership.readLease().filter(l -> !l.internalAddress().isBlank())
        .map(l -> new Target(l.holderId(), l.internalAddress()));
  }

  /**
   * Forwards a drop of {@code table} to {@code leader}; tells the listener the generation the leader's answer
   * names as dropped. Returns the answer.
   */
  public ObjectNode drop(Target leader, Identity caller, Action action, String table) {
    ObjectNode answer = action(leader, caller, action);
    listener.dropped(answer.path("table").asText(TableNames.normalize(table)), answer.path("generation").asText());
    return answer;
  }

  /**
   * Forwards the maintenance of {@code table} to {@code leader}; when the leader's answer names a compacted version,
   * tells the listener the registration as the registry holds it now. Returns the answer.
   */
  public ObjectNode maintain(Target leader, Identity caller, Action action, String table) {
    ObjectNode answer = action(leader, caller, action);
    if (answer.path("compacted_to_version").canConvertToLong()) {
      store.get(TableNames.normalize(table)).ifPresent(listener::registered);
    }
    return answer;
  }

  /**
   * Forwards an index build on {@code table} to {@code leader}; tells the listener the registration as the registry
   * holds it now (the leader registered a new version). Returns the answer.
   */
  public ObjectNode createIndex(Target leader, Identity caller, Action action, String table) {
    ObjectNode answer = action(leader, caller, action);
    store.get(TableNames.normalize(table)).ifPresent(listener::registered);
    return answer;
  }

  private ObjectNode action(Target leader, Identity caller, Action action) {
    byte[] result = client.action(leader, caller.user(), action);
    try {
      JsonNode node = JSON.readTree(result);
      if (node == null || !node.isObject()) {
        throw new IllegalStateException("the leader's answer to " + action.getType() + " is not a JSON object");
      }
      return (ObjectNode) node;
    } catch (IOException e) {
      throw new IllegalStateException("the leader's answer to " + action.getType() + " is not JSON", e);
    }
  }
}
