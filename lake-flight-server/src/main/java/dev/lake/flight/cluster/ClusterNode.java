package dev.lake.flight.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.flight.auth.Signer;
import dev.lake.flight.auth.User;
import dev.lake.flight.security.InternalTransport;
import dev.lake.metasrv.ClusterLeadership;
import dev.lake.metasrv.Leadership;
import dev.lake.registry.MetaStore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster side of one node (registry backend DynamoDB): its {@link ClusterLeadership}, the client that forwards
 * a follower's writes to the leader, and the internal endpoint where the leader takes them. A single node (RocksDB)
 * uses {@link #single()}: always the leader (its lease is taken at start-up), nothing is forwarded, no internal
 * endpoint.
 *
 * <p>Life cycle: {@link #clustered} (before the write path is wired: it provides the {@link #leadership()}), then
 * {@link #forwarding}, {@link #internalEndpoint}, {@link #start} once the Flight SQL endpoint is bound (it binds the
 * internal endpoint, advertises both addresses, runs the first campaign and schedules the rest), {@link #close}.
 */
public final class ClusterNode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);
  private final ClusterNodeSettings settings;
  private final ClusterLeadership leadership;
  private final String nodeId;
  private LeaderClient client;
  private FlightServer internal;
  private volatile String internalAddress;
  private volatile String flightAddress;

  private ClusterNode(ClusterNodeSettings settings, ClusterLeadership leadership, String nodeId) {
    this.settings = settings;
    this.leadership = leadership;
    this.nodeId = nodeId;
  }

  public static ClusterNode single() {
    return new ClusterNode(null, null, null);
  }

  /** A node of a cluster on {@code store}: it campaigns for the lease with {@code clock} and the system ticker. */
  public static ClusterNode clustered(ClusterNodeSettings settings, MetaStore store, String nodeId, Clock clock) {
    return clustered(settings, store, nodeId, clock, Ticker.systemTicker());
  }

  public static ClusterNode clustered(ClusterNodeSettings settings, MetaStore store, String nodeId, Clock clock,
      Ticker ticker) {
    Objects.requireNonNull(settings, "settings");
    return new ClusterNode(settings, new ClusterLeadership(store, nodeId, settings.lease(), clock, ticker), nodeId);
  }

  public boolean isClustered() {
    return leadership != null;
  }

  /** The cluster leadership (only for a clustered node). */
  public Leadership leadership() {
    return Objects.requireNonNull(leadership, "a single node takes its lease at start-up");
  }

  /** How this node's writes are routed. */
  public Forwarding forwarding(Signer signer, BufferAllocator allocator, Clock clock, InternalTransport transport) {
    if (leadership == null) {
      return Forwarding.none();
    }
    client = new LeaderClient(allocator, new InternalTokens(signer, clock), nodeId, settings.forwardingDeadline(),
        settings.retryBuffer(), System::nanoTime, transport);
    return new Forwarding(leadership, client);
  }

  /**
   * Builds (does not start) the internal endpoint on {@code host}:{@code server.internal-port} that runs writes
   * forwarded by followers, over {@code transport} (mutual TLS when the node serves TLS). A no-op for a single node.
   */
  public void internalEndpoint(BufferAllocator allocator, String host, Signer signer, Clock clock,
      Map<String, User> users, InternalEndpoint.LocalIngest ingest, InternalEndpoint.LocalActions actions,
      InternalTransport transport) {
    if (leadership == null) {
      return;
    }
    InternalTokens tokens = new InternalTokens(signer, clock);
    FlightServer.Builder builder = FlightServer.builder(allocator, transport.location(host, settings.internalPort()),
            new InternalEndpoint(users, ingest, actions, allocator))
        .headerAuthenticator(new InternalAuthenticator(tokens))
        .middleware(InternalCallBinding.KEY, new InternalCallBinding.Factory(tokens));
    transport.configure(builder, dev.lake.flight.grpc.GrpcHooks.consumer());
    internal = builder.build();
  }

  /**
   * Binds the internal endpoint, advertises this node's addresses (the Flight SQL endpoint bound at
   * {@code host}:{@code flightPort}), runs the first campaign and schedules the following ones. A no-op for a
   * single node.
   */
  public void start(String host, int flightPort) throws IOException {
    if (leadership == null) {
      return;
    }
    internal.start();
    flightAddress = settings.advertisedAddress().orElseGet(() -> advertisable(host, "node.advertised-address")
        + ":" + flightPort);
    internalAddress = settings.internalAddress().orElseGet(() -> advertisable(host, "node.internal-address")
        + ":" + internal.getPort());
    leadership.advertise(flightAddress, internalAddress);
    leadership.start();
    LOG.info("cluster node started node={} flightAddress={} internalAddress={} leader={} lease={}", nodeId,
        flightAddress, internalAddress, leadership.isLeader(), leadership.observedLease().map(l -> l.holderId()
            + "@" + l.term()).orElse("none"));
  }

  public boolean isLeader() {
    return leadership == null || leadership.isLeader();
  }

  /** The lease term this node last observed (its own while leading); 0 when it knows of none or is not clustered. */
  public long observedTerm() {
    return leadership == null ? 0 : leadership.observedLease().map(dev.lake.registry.LeaderLease::term).orElse(0L);
  }

  /** This node's internal endpoint as other nodes reach it (after {@link #start}); empty for a single node. */
  public java.util.Optional<String> internalAddress() {
    return java.util.Optional.ofNullable(internalAddress);
  }

  /**
   * Stops the internal endpoint (forwarded writes already running finish first), then stops campaigning and
   * releases the lease if held, so another node takes over without waiting out the lease.
   */
  @Override
  public void close() {
    if (leadership == null) {
      return;
    }
    if (internal != null) {
      try {
        internal.shutdown();
        internal.awaitTermination(10, TimeUnit.SECONDS);
        internal.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        LOG.warn("closing the internal endpoint failed", e);
      }
    }
    leadership.close();
    if (client != null) {
      client.close();
    }
  }

  private static String advertisable(String host, String key) {
    try {
      if (InetAddress.getByName(host).isAnyLocalAddress()) {
        throw new IllegalArgumentException("server.host is " + host + ", which other nodes cannot connect to: set "
            + key + " to this node's reachable host:port");
      }
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("server.host '" + host + "' does not resolve");
    }
    return host;
  }
}
