package dev.lake.flight.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.flight.auth.Signer;
import dev.lake.flight.auth.User;
import dev.lake.flight.security.InternalTransport;
import dev.lake.metasrv.Leadership;
import dev.lake.metasrv.SingleNodeLeadership;
import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistrationListener;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The cluster side of one node, in one of two shapes: {@link #single} (RocksDB: one process, always the leader, its
 * lease taken at start-up; nothing is forwarded, no internal endpoint) or {@link #clustered} (DynamoDB: it campaigns
 * for the lease, forwards a follower's writes to the leader, and serves forwarded writes on its internal endpoint
 * while it leads).
 *
 * <p>Life cycle: created before the write path is wired (it provides the {@link #leadership()}), then
 * {@link #forwarding}, {@link #internalEndpoint}, {@link #start} once the Flight SQL endpoint is bound, {@link #close}.
 */
public interface ClusterNode extends AutoCloseable {
  /** A single node whose lease {@code leadership} holds (taken at start-up). */
  static ClusterNode single(SingleNodeLeadership leadership) {
    return new SingleNode(leadership);
  }

  /** A node of a cluster on {@code store}: it campaigns for the lease with {@code clock} and the system ticker. */
  static ClusterNode clustered(ClusterNodeSettings settings, MetaStore store, String nodeId, Clock clock) {
    return clustered(settings, store, nodeId, clock, Ticker.systemTicker());
  }

  static ClusterNode clustered(ClusterNodeSettings settings, MetaStore store, String nodeId, Clock clock,
      Ticker ticker) {
    return new ClusteredNode(settings, store, nodeId, clock, ticker);
  }

  /** This node's write gate. */
  Leadership leadership();

  /**
   * How this node's writes are routed; what a forwarded write registered or dropped is told to {@code listener}
   * (this node's catalog: read-your-writes on a follower).
   */
  Forwarding forwarding(Signer signer, BufferAllocator allocator, Clock clock, InternalTransport transport,
      RegistrationListener listener);

  /**
   * Builds (does not start) the internal endpoint on {@code host}:{@code server.internal-port} that runs writes
   * forwarded by followers, over {@code transport} (mutual TLS when the node serves TLS).
   */
  void internalEndpoint(BufferAllocator allocator, String host, Signer signer, Clock clock, Map<String, User> users,
      InternalEndpoint.LocalIngest ingest, InternalEndpoint.LocalActions actions, InternalTransport transport);

  /**
   * Binds the internal endpoint, advertises this node's addresses (the Flight SQL endpoint bound at
   * {@code host}:{@code flightPort}), runs the first campaign and schedules the following ones.
   */
  void start(String host, int flightPort) throws IOException;

  /** True while this node's write gate is open. */
  boolean isLeader();

  /** The lease term this node last observed (its own while leading); 0 when it knows of none. */
  long observedTerm();

  /** This node's internal endpoint as other nodes reach it (after {@link #start}); empty without one. */
  Optional<String> internalAddress();

  @Override
  void close();

  /** One process on its own registry: the leader for as long as it runs; every write runs here. */
  final class SingleNode implements ClusterNode {
    private final SingleNodeLeadership leadership;

    private SingleNode(SingleNodeLeadership leadership) {
      this.leadership = java.util.Objects.requireNonNull(leadership, "leadership");
    }

    @Override
    public Leadership leadership() {
      return leadership;
    }

    @Override
    public Forwarding forwarding(Signer signer, BufferAllocator allocator, Clock clock, InternalTransport transport,
        RegistrationListener listener) {
      return Forwarding.none();
    }

    @Override
    public void internalEndpoint(BufferAllocator allocator, String host, Signer signer, Clock clock,
        Map<String, User> users, InternalEndpoint.LocalIngest ingest, InternalEndpoint.LocalActions actions,
        InternalTransport transport) {
      // no internal endpoint: nobody forwards to a single node
    }

    @Override
    public void start(String host, int flightPort) {
      // the lease was taken at start-up
    }

    @Override
    public boolean isLeader() {
      return true;
    }

    @Override
    public long observedTerm() {
      return leadership.enter().term();
    }

    @Override
    public Optional<String> internalAddress() {
      return Optional.empty();
    }

    @Override
    public void close() {
      // nothing to release: the lease stays until another process takes the next term
    }
  }
}
