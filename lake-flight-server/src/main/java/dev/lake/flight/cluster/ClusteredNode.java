package dev.lake.flight.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.flight.auth.Signer;
import dev.lake.flight.auth.User;
import dev.lake.flight.security.InternalTransport;
import dev.lake.metasrv.ClusterLeadership;
import dev.lake.metasrv.Leadership;
import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistrationListener;
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
 * A node of a cluster (registry backend DynamoDB): its {@link ClusterLeadership}, the client that forwards a
 * follower's writes to the leader, and the internal endpoint where the leader takes them. The life cycle is
 * {@link ClusterNode}'s.
 */
final class ClusteredNode implements ClusterNode {
  private static final Logger LOG = LoggerFactory.getLogger(ClusteredNode.class);
  private final ClusterNodeSettings settings;
  private final ClusterLeadership leadership;
  private final String nodeId;
  private final MetaStore store;
  private LeaderClient client;
  private FlightServer internal;
  private volatile String internalAddress;
  private volatile String flightAddress;

  ClusteredNode(ClusterNodeSettings settings, MetaStore store, String nodeId, Clock clock, Ticker ticker) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.store = store;
    this.nodeId = nodeId;
    this.leadership = new ClusterLeadership(store, nodeId, settings.lease(), clock, ticker);
  }

  @Override
  public Leadership leadership() {
    return leadership;
  }

  @Override
  public Forwarding forwarding(Signer signer, BufferAllocator allocator, Clock clock, InternalTransport transport,
      RegistrationListener listener) {
    client = new LeaderClient(allocator, new InternalTokens(signer, clock), nodeId, settings.forwardingDeadline(),
        settings.retryBuffer(), System::nanoTime, transport);
    return new Forwarding(leadership, client, store, listener);
  }

  @Override
  public void internalEndpoint(BufferAllocator allocator, String host, Signer signer, Clock clock,
      Map<String, User> users, InternalEndpoint.LocalIngest ingest, InternalEndpoint.LocalActions actions,
      InternalTransport transport) {
    InternalTokens tokens = new InternalTokens(signer, clock);
    FlightServer.Builder builder = FlightServer.builder(allocator, transport.location(host, settings.internalPort()),
            new InternalEndpoint(users, ingest, actions, allocator))
        .headerAuthenticator(new InternalAuthenticator(tokens))
        .middleware(InternalCallBinding.KEY, new InternalCallBinding.Factory(tokens));
    transport.configure(builder, dev.lake.flight.grpc.GrpcHooks.consumer());
    internal = builder.build();
  }

  @Override
  public void start(String host, int flightPort) throws IOException {
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

  @Override
  public boolean isLeader() {
    return leadership.isLeader();
  }

  @Override
  public long observedTerm() {
    return leadership.observedLease().map(dev.lake.registry.LeaderLease::term).orElse(0L);
  }

  @Override
  public java.util.Optional<String> internalAddress() {
    return java.util.Optional.ofNullable(internalAddress);
  }

  /**
   * Stops the internal endpoint (forwarded writes already running finish first), then stops campaigning and
   * releases the lease if held, so another node takes over without waiting out the lease.
   */
  @Override
  public void close() {
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
