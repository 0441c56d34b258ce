package dev.lake.metasrv;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.NodeInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership of a cluster node (docs/design.md invariant 5): campaigns for the registry's lease item and keeps an
 * honest write gate.
 *
 * <p><b>The gate</b> is open only while this node won its last campaign <i>and</i> the injected monotonic ticker is
 * before the deadline = ticker at the start of that campaign + {@code lease.duration - lease.safety-margin}. The
 * deadline is checked on every {@link #enter()}, so the gate closes on time even when no campaign runs at all (a
 * stalled scheduler, a paused process). {@link #enter()} returns the fence (holder, term) captured at that moment;
 * the registry checks it on the write, so a write that passed the gate in term t can never commit once the lease
 * moved on, whatever this node's clocks say.
 *
 * <p><b>Campaigns</b> ({@link LeaseCampaign}) run one at a time on the thread {@code lake-lease-campaign} every
 * {@code lease.renew-interval}. Each campaign's registry I/O runs on the thread {@code lake-lease-io} and is cut off
 * after {@code lease.campaign-timeout} (below the safety margin). On a timeout, a registry error or a lost lease
 * the node demotes at once: the gate closes before the next {@link #enter()}. A node that regains the lease always
 * takes a new term.
 *
 * <p>Node heartbeats ({@link MetaStore#heartbeat}) for {@code lake.status} run on their own thread
 * ({@code lake-node-heartbeat}) and never hold up a campaign.
 */
public final class ClusterLeadership implements Leadership, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterLeadership.class);

  private final MetaStore store;
  private final String nodeId;
  private final LeaseSettings settings;
  private final Clock clock;
  private final Ticker ticker;
  private final ScheduledExecutorService campaigns;
  private final ScheduledExecutorService heartbeats;
  private final ExecutorService io;
  private final Object campaignLock = new Object();

  /** This node's winning lease and its gate deadline (ticker nanos); null while not the leader. */
  private volatile Gate gate;
  /** The lease item as this node last read or wrote it (for routing writes to the leader, and status). */
  private volatile Optional<LeaderLease> observed = Optional.empty();
  private volatile String internalAddress;
  private volatile String flightAddress;
  private volatile boolean closing;
  /** True while a campaign's registry call runs on the I/O thread (also after the campaign abandoned it). */
  private final java.util.concurrent.atomic.AtomicBoolean ioBusy = new java.util.concurrent.atomic.AtomicBoolean();

  private record Gate(LeaderLease lease, long deadlineNanos) {}

  /** What {@link #campaignOnce()} did, for tests and logs. */
  public record CampaignResult(boolean leader, Optional<LeaderLease> lease, String action) {}

  /** A snapshot for {@code lake.status}. */
  public record Status(boolean leader, Optional<LeaderLease> heldLease, Optional<Duration> gateOpenFor,
      Optional<LeaderLease> observedLease) {}

  public ClusterLeadership(MetaStore store, String nodeId, LeaseSettings settings, Clock clock, Ticker ticker) {
    this.store = Objects.requireNonNull(store, "store");
    this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.campaigns = scheduler("lake-lease-campaign");
    this.heartbeats = scheduler("lake-node-heartbeat");
    this.io = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(1), r -> {
      Thread t = new Thread(r, "lake-lease-io");
      t.setDaemon(true);
      return t;
    });
  }

  /** The addresses this node advertises: in the lease (internal, where followers forward writes) and heartbeats. */
  public void advertise(String flightAddress, String internalAddress) {
    this.flightAddress = Objects.requireNonNull(flightAddress, "flightAddress");
    this.internalAddress = Objects.requireNonNull(internalAddress, "internalAddress");
  }

  /**
   * Runs one campaign now (so a lone node is the leader when start-up returns), then one every
   * {@code lease.renew-interval}, and heartbeats at the same interval. Call {@link #advertise} first.
   */
  public void start() {
    if (internalAddress == null) {
      throw new IllegalStateException("advertise(...) the node's addresses before starting its campaigns");
    }
    campaignOnce();
    long every = settings.renewInterval().toMillis();
    campaigns.scheduleWithFixedDelay(this::campaignQuietly, every, every, TimeUnit.MILLISECONDS);
    heartbeats.scheduleWithFixedDelay(this::heartbeat, 0, every, TimeUnit.MILLISECONDS);
  }

  @Override
  public LeaseFence enter() {
    Gate g = gate;
    if (g == null) {
      throw new NotLeaderException("node '" + nodeId + "' is not the leader" + leaderHint()
          + ": nothing was written; retry (a follower forwards writes to the leader)");
    }
    if (ticker.read() - g.deadlineNanos() >= 0) {
      throw new NotLeaderException("node '" + nodeId + "' may not write: its lease (term " + g.lease().term()
          + ") reached its local deadline without a successful renewal; nothing was written; retry");
    }
    return g.lease().fence();
  }

  @Override
  public boolean isLeader() {
    Gate g = gate;
    return g != null && ticker.read() - g.deadlineNanos() < 0;
  }

  /** The lease item as last seen by a campaign (may be stale by one renew interval). */
  public Optional<LeaderLease> observedLease() {
    return observed;
  }

  /**
   * Reads the lease item from the registry now (a consistent read), for a follower whose forward to the leader it
   * knew stalled or failed: it learns of a new leader without waiting for its own next campaign. The answer also
   * becomes {@link #observedLease()} when it is not older (by term) than what this node saw last, so the next
   * writes are routed to the new holder at once. Never changes this node's write gate.
   *
   * @throws dev.lake.registry.RegistryException when the registry cannot be read
   */
  public Optional<LeaderLease> readLease() {
    Optional<LeaderLease> read = store.lease();
    long seen = observed.map(LeaderLease::term).orElse(0L);
    if (read.isPresent() && read.get().term() >= seen) {
      observed = read; // a campaign running now may overwrite it with what it read: as fresh
    }
    return read;
  }

  public String nodeId() {
    return nodeId;
  }

  public LeaseSettings settings() {
    return settings;
  }

  public Status status() {
    Gate g = gate;
    long now = ticker.read();
    boolean open = g != null && now - g.deadlineNanos() < 0;
    return new Status(open, open ? Optional.of(g.lease()) : Optional.empty(),
        open ? Optional.of(Duration.ofNanos(g.deadlineNanos() - now)) : Optional.empty(), observed);
  }

  /**
   * One campaign: renew, acquire, take over or follow; demotes at once on a timeout, an error or a lost lease.
   * Campaigns never overlap. Public for tests, which steer the clocks and call it directly.
   */
  public CampaignResult campaignOnce() {
    synchronized (campaignLock) {
      long started = ticker.read();
      Instant wallNow = clock.instant();
      Gate before = gate;
      Optional<LeaseFence> held = before != null && started - before.deadlineNanos() < 0
          ? Optional.of(before.lease().fence()) : Optional.empty();
      if (ioBusy.get()) {
        demote(before, "the previous campaign's registry call has still not returned");
        return new CampaignResult(false, observed, "registry call still pending");
      }
      String address = internalAddress == null ? "" : internalAddress;
      Future<LeaseCampaign.Outcome> call;
      try {
        call = io.submit(() -> {
          ioBusy.set(true);
          try {
            return LeaseCampaign.run(store, nodeId, address, held, wallNow, settings.duration());
          } finally {
            ioBusy.set(false);
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        demote(before, "the campaign could not be started (" + e.getMessage() + ")");
        return new CampaignResult(false, observed, "rejected");
      }
      LeaseCampaign.Outcome outcome;
      try {
        outcome = call.get(settings.campaignTimeout().toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        call.cancel(true);
        demote(before, "the campaign's registry I/O took longer than lease.campaign-timeout ("
            + settings.campaignTimeout() + ")");
        return new CampaignResult(false, observed, "timed out");
      } catch (ExecutionException e) {
        demote(before, "the campaign failed: " + e.getCause());
        return new CampaignResult(false, observed, "failed");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        call.cancel(true);
        demote(before, "the campaign was interrupted");
        return new CampaignResult(false, observed, "interrupted");
      }
      observed = outcome.lease();
      if (outcome.won()) {
        LeaderLease lease = outcome.lease().orElseThrow();
        gate = new Gate(lease, started + settings.gateWindow().toNanos());
        if (before == null || before.lease().term() != lease.term()) {
          LOG.info("leader node={} term={} action={} expiresAt={}", nodeId, lease.term(), outcome.action(),
              lease.expiresAt());
        }
        return new CampaignResult(true, outcome.lease(), outcome.action());
      }
      demote(before, "another node holds the lease (" + outcome.action() + ": "
          + outcome.lease().map(l -> l.holderId() + " at term " + l.term()).orElse("none") + ")");
      return new CampaignResult(false, outcome.lease(), outcome.action());
    }
  }

  /**
   * Stops campaigning. A leader closes its gate, then writes its lease as expired now (same holder and term, so a
   * write already past the gate still commits or is refused by the registry as usual), letting another node take
   * over without waiting out the lease. Bounded by the campaign timeout.
   */
  @Override
  public void close() {
    closing = true;
    campaigns.shutdownNow();
    heartbeats.shutdownNow();
    await(campaigns);
    Gate g;
    synchronized (campaignLock) {
      g = gate;
      gate = null;
    }
    if (g != null) {
      try {
        Future<?> release = io.submit(() -> {
          store.writeLease(Optional.of(g.lease()), new LeaderLease(nodeId, g.lease().internalAddress(),
              g.lease().term(), clock.instant()));
          return null;
        });
        release.get(settings.campaignTimeout().toNanos(), TimeUnit.NANOSECONDS);
        LOG.info("lease released node={} term={}", nodeId, g.lease().term());
      } catch (Exception e) {
        LOG.warn("could not release the lease node={} term={}; other nodes take over once it expires: {}",
            nodeId, g.lease().term(), e.toString());
      }
    }
    io.shutdownNow();
    await(heartbeats);
    await(io);
  }

  private void campaignQuietly() {
    try {
      campaignOnce();
    } catch (RuntimeException e) {
      LOG.warn("lease campaign failed node={}", nodeId, e);
    }
  }

  private void heartbeat() {
    String flight = flightAddress;
    String internal = internalAddress;
    if (flight == null || internal == null) {
      return;
    }
    try {
      store.heartbeat(new NodeInfo(nodeId, flight, internal, clock.instant()));
    } catch (RuntimeException e) {
      LOG.debug("heartbeat failed node={}: {}", nodeId, e.toString());
    }
  }

  private void demote(Gate before, String why) {
    gate = null;
    if (closing) {
      LOG.info("stopped campaigning node={}", nodeId);
    } else if (before != null) {
      LOG.warn("demoted node={} term={}: {}; the write gate is closed", nodeId, before.lease().term(), why);
    } else {
      LOG.debug("not leader node={}: {}", nodeId, why);
    }
  }

  private String leaderHint() {
    return observed.filter(l -> !l.holderId().equals(nodeId))
        .map(l -> " (the lease is held by '" + l.holderId() + "' at term " + l.term() + ")")
        .orElse(" (no leader elected yet)");
  }

  private static ScheduledExecutorService scheduler(String name) {
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }

  private static void await(ExecutorService executor) {
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
