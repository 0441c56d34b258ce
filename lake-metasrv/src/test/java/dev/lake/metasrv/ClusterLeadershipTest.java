package dev.lake.metasrv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.engine.LanceTableEngine;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.rocksdb.RocksDbMetaStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md invariant 5 on one node's side: the write gate closes on the injected monotonic clock without any
 * campaign, a campaign whose registry I/O hangs demotes the node before the safety margin is used up, and the
 * lease moves between nodes only by conditional writes that raise the term.
 */
class ClusterLeadershipTest {
  @TempDir
  Path dir;

  private MetaStore rocks;
  private final BufferAllocator allocator = new RootAllocator();

  @BeforeEach
  void open() {
    rocks = RocksDbMetaStore.open(dir.resolve("registry"));
  }

  @AfterEach
  void close() {
    rocks.close();
    allocator.close();
  }

  @Test
  void leaseExpiryClosesWriteGateWithoutNewCampaign() {
    LeaseSettings settings = new LeaseSettings(Duration.ofSeconds(10), Duration.ofSeconds(3), Duration.ofSeconds(1),
        Duration.ofSeconds(1));
    FakeTicker ticker = new FakeTicker();
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    try (ClusterLeadership leadership = leadership(rocks, "node-a", settings, clock, ticker);
        LanceTableEngine engine = new LanceTableEngine(allocator, Map.of())) {
      // Publish a lease: the one campaign of this test.
      assertThat(leadership.campaignOnce().leader()).isTrue();
      LeaderLease published = rocks.lease().orElseThrow();
      assertThat(published.holderId()).isEqualTo("node-a");
      assertThat(published.expiresAt()).isEqualTo(clock.instant().plus(settings.duration()));
      WriteCoordinator writes = new WriteCoordinator(rocks, engine, leadership, new TableLocks(30_000),
          new TableLocations(dir.resolve("tables").toString()), allocator, clock, WriteInterceptor.NONE);
      writes.ingest(create("t"), reader(List.of(1L, 2L, 3L)));

      // Just before the deadline (campaign start + 10 s - 3 s) the gate is open and writes pass...
      ticker.advance(settings.gateWindow().minusNanos(1));
      assertThat(leadership.isLeader()).isTrue();
      assertThat(leadership.enter()).isEqualTo(new LeaseFence("node-a", published.term()));
      writes.ingest(append("t"), reader(List.of(4L)));
      TableRegistration before = rocks.get("t").orElseThrow();

      // ...and at the deadline it is closed, with no campaign having run: the wall clock did not move, the lease
      // item still names this node, but the node's own monotonic clock says its lease may have expired.
      ticker.advance(Duration.ofNanos(1));
      assertThat(leadership.isLeader()).isFalse();
      assertThatThrownBy(leadership::enter).isInstanceOf(NotLeaderException.class)
          .hasMessageContaining("deadline");
      assertThatThrownBy(() -> writes.ingest(append("t"), reader(List.of(5L))))
          .isInstanceOf(NotLeaderException.class);
      assertThatThrownBy(() -> writes.drop("t")).isInstanceOf(NotLeaderException.class);
      assertThatThrownBy(() -> writes.ingest(create("u"), reader(List.of(6L))))
          .isInstanceOf(NotLeaderException.class);
      assertThat(rocks.get("t")).contains(before);
      assertThat(rocks.get("u")).isEmpty();
      assertThat(rocks.lease()).contains(published);
    }
  }

  @Test
  void campaignTimeoutDemotes() throws Exception {
    LeaseSettings settings = new LeaseSettings(Duration.ofSeconds(4), Duration.ofMillis(1500),
        Duration.ofMillis(500), Duration.ofMillis(100));
    HangingMetaStore registry = new HangingMetaStore(rocks);
    try (ClusterLeadership leadership = leadership(registry, "node-a", settings, Clock.systemUTC(),
        Ticker.systemTicker())) {
      ClusterLeadership.CampaignResult first = campaignUntilLeader(leadership);
      long term = first.lease().orElseThrow().term();
      Duration gateLeft = leadership.status().gateOpenFor().orElseThrow();

      registry.hangLeaseCalls();
      long started = System.nanoTime();
      ClusterLeadership.CampaignResult hung = leadership.campaignOnce();
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      // Demoted when the campaign timeout ran out: long before the safety margin (and the old deadline) was used up.
      assertThat(hung.leader()).isFalse();
      assertThat(hung.action()).isEqualTo("timed out");
      assertThat(leadership.isLeader()).isFalse();
      assertThatThrownBy(leadership::enter).isInstanceOf(NotLeaderException.class);
      assertThat(took).isGreaterThanOrEqualTo(settings.campaignTimeout()).isLessThan(settings.safetyMargin())
          .isLessThan(gateLeft);
      assertThat(registry.hungCalls.get()).isEqualTo(1);

      // The registry answers again; the abandoned call returns (the node stays demoted meanwhile), and the node
      // regains the lease only in a new term, so nothing that passed the gate in the old term can commit.
      registry.release();
      ClusterLeadership.CampaignResult again = campaignUntilLeader(leadership);
      assertThat(again.lease().orElseThrow().term()).isEqualTo(term + 1);
      assertThat(leadership.enter()).isEqualTo(new LeaseFence("node-a", term + 1));
    }
  }

  @Test
  void followerTakesOverOnlyAfterTheLeaseExpiredAndTheOldLeaderDemotes() {
    LeaseSettings settings = new LeaseSettings(Duration.ofSeconds(10), Duration.ofSeconds(3), Duration.ofSeconds(1),
        Duration.ofSeconds(1));
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    FakeTicker tickerA = new FakeTicker();
    FakeTicker tickerB = new FakeTicker();
    try (ClusterLeadership a = leadership(rocks, "node-a", settings, clock, tickerA);
        ClusterLeadership b = leadership(rocks, "node-b", settings, clock, tickerB)) {
      assertThat(a.campaignOnce().action()).isEqualTo("acquired");
      ClusterLeadership.CampaignResult follow = b.campaignOnce();
      assertThat(follow.leader()).isFalse();
      assertThat(follow.action()).isEqualTo("following");
      assertThat(b.observedLease().orElseThrow().holderId()).isEqualTo("node-a");
      assertThatThrownBy(b::enter).isInstanceOf(NotLeaderException.class).hasMessageContaining("node-a");

      // A renews: same term, later expiry.
      clock.advance(Duration.ofSeconds(5));
      tickerA.advance(Duration.ofSeconds(5));
      assertThat(a.campaignOnce().action()).isEqualTo("renewed");
      assertThat(rocks.lease().orElseThrow().term()).isEqualTo(1);

      // A stops renewing; on B's wall clock the lease expires, and B takes over at term 2.
      clock.advance(Duration.ofSeconds(9));
      assertThat(b.campaignOnce().leader()).as("not before expiry").isFalse();
      clock.advance(Duration.ofSeconds(2));
      ClusterLeadership.CampaignResult took = b.campaignOnce();
      assertThat(took.action()).isEqualTo("took over");
      assertThat(took.lease().orElseThrow().term()).isEqualTo(2);
      assertThat(b.enter()).isEqualTo(new LeaseFence("node-b", 2));

      // A's next campaign finds the lease gone and demotes at once (its gate would have closed on its own too).
      ClusterLeadership.CampaignResult lost = a.campaignOnce();
      assertThat(lost.leader()).isFalse();
      assertThat(a.isLeader()).isFalse();
      assertThat(lost.lease().orElseThrow().holderId()).isEqualTo("node-b");
    }
  }

  /** Campaigns until the abandoned registry call has returned and a campaign wins (bounded). */
  private static ClusterLeadership.CampaignResult campaignUntilLeader(ClusterLeadership leadership)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      ClusterLeadership.CampaignResult result = leadership.campaignOnce();
      if (result.leader()) {
        return result;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never regained the lease: " + result);
      }
      Thread.sleep(20);
    }
  }

  private static ClusterLeadership leadership(MetaStore store, String node, LeaseSettings settings, Clock clock,
      Ticker ticker) {
    ClusterLeadership leadership = new ClusterLeadership(store, node, settings, clock, ticker);
    leadership.advertise("127.0.0.1:1", "127.0.0.1:2");
    return leadership;
  }

  private static IngestRequest create(String table) {
    return new IngestRequest(table, IngestRequest.IfMissing.CREATE, IngestRequest.IfExists.FAIL, Optional.empty());
  }

  private static IngestRequest append(String table) {
    return new IngestRequest(table, IngestRequest.IfMissing.FAIL, IngestRequest.IfExists.APPEND, Optional.empty());
  }

  private ArrowReader reader(List<Long> values) {
    return MetasrvHarness.reader(allocator, values);
  }

  /** A monotonic clock the test moves by hand. */
  static final class FakeTicker implements Ticker {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    void advance(Duration d) {
      nanos.addAndGet(d.toNanos());
    }

    @Override
    public long read() {
      return nanos.get();
    }
  }
}
