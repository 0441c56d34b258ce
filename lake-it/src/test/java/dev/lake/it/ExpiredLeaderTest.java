package dev.lake.it;

import static dev.lake.it.support.LongTable.concat;
import static dev.lake.it.support.LongTable.range;
import static dev.lake.it.support.LongTable.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.AdminClient;
import dev.lake.it.support.ClusterNodes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LeaseFaultMetaStore;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Poll;
import dev.lake.it.support.RegistryWritePause;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.it.support.Status;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.dynamodb.Dynoxide;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md invariant 5, deterministically: writes of a leader are held at the pause point (after the write gate
 * captured their fence, before the registry write) past the leader's lease. Neither another node's take-over nor
 * this node regaining the lease in a later term lets any of them commit: the registry checks the fence captured
 * at the gate. (An ingest a follower forwarded with an idempotency key does not wait for the held leader: once the
 * lease moved, the follower resends it to the new leader, which applies it once — issue 18.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExpiredLeaderTest {
  @TempDir
  Path dataDir;

  private S3ProxyServer s3;
  private Dynoxide dynamoDb;

  @BeforeAll
  void startStandIns() throws Exception {
    s3 = S3ProxyServer.start("lake-expired-leader");
    dynamoDb = Dynoxide.start();
  }

  @AfterAll
  void stopStandIns() throws Exception {
    dynamoDb.close();
    s3.close();
  }

  @Test
  void pausedLeaderCannotCommitAfterResume() throws Exception {
    String registry = "lake-paused-" + UUID.randomUUID();
    RegistryWritePause pause = new RegistryWritePause();
    AtomicReference<LeaseFaultMetaStore> aStore = new AtomicReference<>();
    try (LakeTestServer a = node(registry, "node-a", x -> x.writeInterceptor(pause)
            .wrapMetaStore(s -> { aStore.set(new LeaseFaultMetaStore(s)); return aStore.get(); }));
        FlightTestClient viaA = a.client();
        MetaStore store = ClusterNodes.registryView(dynamoDb, registry)) {
      assertThat(a.server().isLeader()).isTrue();
      for (String t : List.of("a1", "a2", "a3")) {
        LongTable.ingest(viaA, t, 0, 10, FlightTestClient.create());
      }
      LakeTestServer b = node(registry, "node-b", x -> { });
      try (FlightTestClient viaB = b.client()) {
        Map<String, TableRegistration> before = registrations(store, "a1", "a2", "a3");
        long termA = store.lease().orElseThrow().term();

        // Part 1: three writes of the leader pass its gate in term t and are held before their registry writes:
        // an append sent to the leader, an append forwarded by the follower, a drop.
        pause.arm(Set.of("a1", "a2", "a3"));
        CompletableFuture<Long> appendA1 = CompletableFuture.supplyAsync(() ->
            ClusterNodes.ingest(viaA, "a1", 100, 5, FlightTestClient.append(), "p1"));
        CompletableFuture<Long> appendA2 = CompletableFuture.supplyAsync(() ->
            ClusterNodes.ingest(viaB, "a2", 100, 5, FlightTestClient.append(), "p2"));
        CompletableFuture<Object> dropA3 = CompletableFuture.supplyAsync(() -> AdminClient.drop(viaA, "a3"));
        assertThat(pause.awaitHeld(60)).as("all three writes reached the pause point").isTrue();

        // Held past its lease: the leader stops reaching the lease item (its campaigns fail, it demotes), its
        // lease expires, and the other node takes over and commits to a different table.
        aStore.get().partition();
        Poll.until(Duration.ofSeconds(10), "node-a demoted", () -> !a.server().isLeader());
        Poll.until(Duration.ofSeconds(15), "node-b took over", () -> b.server().isLeader());
        LeaderLease taken = store.lease().orElseThrow();
        assertThat(taken.holderId()).isEqualTo("node-b");
        assertThat(taken.term()).isGreaterThan(termA);
        assertThat(LongTable.ingest(viaB, "other", 500, 5, FlightTestClient.create())).isEqualTo(5);
        assertThat(LongTable.ingest(viaB, "other", 505, 5, FlightTestClient.append())).isEqualTo(5);
        assertThat(store.get("other").orElseThrow().term()).isEqualTo(taken.term());

        // The append forwarded by the follower (with its idempotency key) does not wait for the stalled leader: once
        // the lease moved, the follower resent it to the new leader — itself — which applied it once (issue 18).
        assertThat(appendA2.get(60, TimeUnit.SECONDS)).isEqualTo(5);
        TableRegistration a2 = store.get("a2").orElseThrow();
        assertThat(a2.term()).as("registered by the new leader").isEqualTo(taken.term());
        assertThat(store.idempotencyRecord("a2", a2.generation(), "p2")).isPresent();

        // Released: none of the held writes commits, on any table.
        pause.release();
        assertThat(Status.code(catchThrowable(() -> appendA1.get(60, TimeUnit.SECONDS)))).isEqualTo("UNAVAILABLE");
        assertThat(Status.code(catchThrowable(() -> dropA3.get(60, TimeUnit.SECONDS)))).isEqualTo("UNAVAILABLE");
        assertThat(store.get("a1")).contains(before.get("a1"));
        assertThat(store.get("a3")).contains(before.get("a3"));
        assertThat(store.get("a2")).contains(a2);
        for (String t : List.of("a1", "a3")) {
          assertThat(values(viaB, t)).as(t).containsExactlyInAnyOrderElementsOf(range(0, 10));
          assertThat(store.idempotencyRecord(t, before.get(t).generation(), "p1")).isEmpty();
        }
        assertThat(values(viaB, "a2")).as("a2: the forwarded append once")
            .containsExactlyInAnyOrderElementsOf(concat(range(0, 10), range(100, 105)));
        assertThat(values(viaB, "other")).containsExactlyInAnyOrderElementsOf(range(500, 510));
        aStore.get().heal();
      } finally {
        b.close(); // releases its lease: node-a takes over
      }

      // Part 2: a write held in term t does not commit after the same node regains the lease in a later term.
      Poll.until(Duration.ofSeconds(15), "node-a leads again", () -> a.server().isLeader());
      long termT = store.lease().orElseThrow().term();
      TableRegistration a1 = store.get("a1").orElseThrow();
      pause.arm(Set.of("a1"));
      CompletableFuture<Long> held = CompletableFuture.supplyAsync(() ->
          ClusterNodes.ingest(viaA, "a1", 700, 5, FlightTestClient.append(), "p3"));
      assertThat(pause.awaitHeld(60)).isTrue();
      aStore.get().partition();
      Poll.until(Duration.ofSeconds(10), "node-a demoted", () -> !a.server().isLeader());
      aStore.get().heal();
      Poll.until(Duration.ofSeconds(15), "node-a regained the lease", () -> a.server().isLeader());
      LeaderLease regained = store.lease().orElseThrow();
      assertThat(regained.holderId()).isEqualTo("node-a");
      assertThat(regained.term()).isGreaterThan(termT);
      pause.release();
      assertThat(Status.code(catchThrowable(() -> held.get(60, TimeUnit.SECONDS)))).isEqualTo("UNAVAILABLE");
      assertThat(store.get("a1")).contains(a1);
      assertThat(store.idempotencyRecord("a1", a1.generation(), "p3")).isEmpty();
      assertThat(values(viaA, "a1")).containsExactlyInAnyOrderElementsOf(range(0, 10));

      // The node writes on in its new term (its next write restores away the held write's Lance commit).
      assertThat(ClusterNodes.ingest(viaA, "a1", 800, 2, FlightTestClient.append(), "p4")).isEqualTo(2);
      assertThat(values(viaA, "a1")).containsExactlyInAnyOrderElementsOf(concat(range(0, 10), range(800, 802)));
      assertThat(store.get("a1").orElseThrow().term()).isEqualTo(regained.term());
    }
  }

  private static Map<String, TableRegistration> registrations(MetaStore store, String... tables) {
    Map<String, TableRegistration> out = new HashMap<>();
    for (String t : tables) {
      out.put(t, store.get(t).orElseThrow());
    }
    return out;
  }

  private LakeTestServer node(String registry, String nodeId,
      java.util.function.Consumer<dev.lake.flight.LakeServer.Builder> customize) throws Exception {
    Map<String, String> settings = new HashMap<>(ClusterNodes.node(s3, "paused", dynamoDb, registry, nodeId,
        ClusterNodes.SHORT_LEASE));
    settings.put("catalog.ttl", "1h");
    settings.put("catalog.negative-ttl", "1h");
    return LakeTestServer.start(dataDir.resolve(nodeId), customize, settings);
  }
}
