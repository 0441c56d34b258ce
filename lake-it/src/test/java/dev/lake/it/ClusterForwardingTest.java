package dev.lake.it;

import static dev.lake.it.support.LongTable.concat;
import static dev.lake.it.support.LongTable.range;
import static dev.lake.it.support.LongTable.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.engine.StagedData;
import dev.lake.it.support.AdminClient;
import dev.lake.it.support.ClusterNodes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.ForwardingTableEngine;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LeaseFaultMetaStore;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Poll;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.it.support.Status;
import dev.lake.it.support.TcpProxy;
import dev.lake.it.support.TricklingReader;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.dynamodb.Dynoxide;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes in this JVM over one DynamoDB registry (dynoxide) and one S3 data root (s3proxy): a follower forwards
 * writes to the leader's internal endpoint as a stream; a failed forward answers UNAVAILABLE (nothing committed) or
 * UNKNOWN (the whole stream sent, the answer lost), and a retry with the same {@code lake.idempotency_key} is
 * applied once, also on a new leader. Catalogs cache for an hour, so every fresh read below is read-your-writes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterForwardingTest {
  private static final String KEY = "lake.idempotency_key";

  @TempDir
  Path dataDir;

  private S3ProxyServer s3;
  private Dynoxide dynamoDb;

  @BeforeAll
  void startStandIns() throws Exception {
    s3 = S3ProxyServer.start("lake-forwarding");
    dynamoDb = Dynoxide.start();
  }

  @AfterAll
  void stopStandIns() throws Exception {
    dynamoDb.close();
    s3.close();
  }

  @Test
  void twoNodeForwardingIngestsThroughLeader() throws Exception {
    String registry = "lake-fwd-" + UUID.randomUUID();
    CountDownLatch leaderStaging = new CountDownLatch(1);
    try (LakeTestServer a = node("fwd", registry, "node-a", Map.of(), b -> b.wrapEngine(e ->
            new ForwardingTableEngine(e) {
              @Override
              public StagedData stage(String location, ArrowReader data) {
                if (location.contains("/streamed/")) {
                  leaderStaging.countDown();
                }
                return super.stage(location, data);
              }
            }));
        LakeTestServer b = node("fwd", registry, "node-b", Map.of(), x -> { });
        FlightTestClient viaA = a.client();
        FlightTestClient viaB = b.client()) {
      assertThat(a.server().isLeader()).isTrue();
      assertThat(b.server().isLeader()).isFalse();
      JsonNode status = ClusterNodes.status(viaB);
      assertThat(status.get("node").asText()).isEqualTo("node-b");
      assertThat(status.get("leader").asBoolean()).isFalse();
      assertThat(status.get("leader_id").asText()).isEqualTo("node-a");
      long term = status.get("term").asLong();
      assertThat(status.get("lease_expires_at").asText()).isNotBlank();
      List<String> nodes = new ArrayList<>();
      status.get("nodes").forEach(n -> nodes.add(n.get("node").asText()));
      Poll.until(Duration.ofSeconds(10), "both nodes sent a heartbeat", () -> {
        nodes.clear();
        ClusterNodes.status(viaA).get("nodes").forEach(n -> nodes.add(n.get("node").asText()));
        return nodes.containsAll(List.of("node-a", "node-b"));
      });

      // Create and append through the follower: the leader commits (its term), both nodes see the rows at once.
      assertThat(LongTable.ingest(viaB, "t", 0, 10, FlightTestClient.create())).isEqualTo(10);
      assertThat(LongTable.ingest(viaB, "t", 10, 5, FlightTestClient.append())).isEqualTo(5);
      MetaStore registryView = a.server().metaStore();
      TableRegistration t = registryView.get("t").orElseThrow();
      assertThat(t.version()).isEqualTo(2);
      assertThat(t.term()).as("committed by the leader").isEqualTo(term);
      assertThat(values(viaB, "t")).containsExactlyInAnyOrderElementsOf(range(0, 15));
      assertThat(values(viaA, "t")).containsExactlyInAnyOrderElementsOf(range(0, 15));

      // The follower forwards the stream as it arrives: the leader is staging it while the client is still sending.
      CountDownLatch paused = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      List<List<Long>> batches = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        batches.add(range(100 + i * 10, 110 + i * 10));
      }
      TricklingReader trickle = new TricklingReader(viaB.allocator(), batches, 3, paused, release, 60);
      CompletableFuture<Long> streamed = CompletableFuture.supplyAsync(() ->
          viaB.ingest("streamed", trickle, FlightTestClient.create(), Map.of()));
      assertThat(paused.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(leaderStaging.await(30, TimeUnit.SECONDS))
          .as("the leader received the stream before the client finished sending it").isTrue();
      release.countDown();
      assertThat(streamed.get(60, TimeUnit.SECONDS)).isEqualTo(50);
      assertThat(values(viaB, "streamed")).containsExactlyInAnyOrderElementsOf(range(100, 150));

      // Maintenance through the follower runs on the leader.
      JsonNode maintained = AdminClient.maintain(viaB, "streamed");
      assertThat(maintained.get("table").asText()).isEqualTo("streamed");
      assertThat(values(viaB, "streamed")).containsExactlyInAnyOrderElementsOf(range(100, 150));

      // Drop through the follower: gone for both nodes' next query.
      JsonNode dropped = AdminClient.drop(viaB, "t");
      assertThat(dropped.get("generation").asText()).isEqualTo(t.generation());
      assertThat(registryView.get("t")).isEmpty();
      assertThat(Status.code(catchThrowable(() -> values(viaB, "t")))).isEqualTo("NOT_FOUND");
      assertThat(Status.code(catchThrowable(() -> values(viaA, "t")))).isEqualTo("NOT_FOUND");

      // The follower never wrote: every registration carries the leader's term.
      assertThat(registryView.get("streamed").orElseThrow().term()).isEqualTo(term);
      assertThat(b.server().isLeader()).isFalse();
    }
  }

  @Test
  void retriedIngestIsAppliedOnce() throws Exception {
    String registry = "lake-retry-" + UUID.randomUUID();
    int aInternal = ClusterNodes.freePort();
    AtomicReference<LeaseFaultMetaStore> aStore = new AtomicReference<>();
    try (TcpProxy toA = TcpProxy.start(aInternal)) {
      // The follower reaches the leader's internal endpoint only through the proxy (the address in the lease).
      Map<String, String> aSettings = Map.of("server.internal-port", Integer.toString(aInternal),
          "node.internal-address", "127.0.0.1:" + toA.port());
      java.util.concurrent.atomic.AtomicInteger staged = new java.util.concurrent.atomic.AtomicInteger();
      LakeTestServer a = node("retry", registry, "node-a", aSettings,
          x -> x.wrapMetaStore(s -> { aStore.set(new LeaseFaultMetaStore(s)); return aStore.get(); })
              .wrapEngine(e -> new ForwardingTableEngine(e) {
                @Override
                public StagedData stage(String location, ArrowReader data) {
                  staged.incrementAndGet();
                  return super.stage(location, data);
                }
              }));
      AtomicBoolean aOpen = new AtomicBoolean(true);
      try (LakeTestServer b = node("retry", registry, "node-b", Map.of(), x -> { });
          FlightTestClient viaB = b.client()) {
        try (FlightTestClient viaA = a.client()) {
          assertThat(a.server().isLeader()).isTrue();
          assertThat(ClusterNodes.ingest(viaA, "t", 0, 10, FlightTestClient.create(), "create-t")).isEqualTo(10);

          // 1. The same key again, on the leader and through the follower: the original result, applied once.
          assertThat(ClusterNodes.ingest(viaA, "t", 100, 5, FlightTestClient.append(), "k1")).isEqualTo(5);
          assertThat(ClusterNodes.ingest(viaA, "t", 100, 5, FlightTestClient.append(), "k1")).isEqualTo(5);
          assertThat(ClusterNodes.ingest(viaB, "t", 100, 5, FlightTestClient.append(), "k1")).isEqualTo(5);
          assertThat(ClusterNodes.ingest(viaB, "t", 0, 10, FlightTestClient.create(), "create-t")).isEqualTo(10);
          assertThat(values(viaB, "t")).containsExactlyInAnyOrderElementsOf(concat(range(0, 10), range(100, 105)));

          // 2. The connection to the leader breaks before the whole stream was sent: UNAVAILABLE, nothing
          //    committed; the retry with the same key applies it once.
          TableRegistration before = a.server().metaStore().get("t").orElseThrow();
          CountDownLatch paused = new CountDownLatch(1);
          CountDownLatch release = new CountDownLatch(1);
          // (many batches after the cut: the follower notices the broken connection long before the stream's end)
          List<List<Long>> rest = new ArrayList<>();
          rest.add(range(200, 210));
          for (int i = 0; i < 200; i++) {
            rest.add(range(210 + i * 1000L, 210 + (i + 1) * 1000L));
          }
          TricklingReader trickle = new TricklingReader(viaB.allocator(), rest, 1, paused, release, 60);
          int stagedBefore = staged.get();
          CompletableFuture<Long> cut = CompletableFuture.supplyAsync(() ->
              viaB.ingest("t", trickle, FlightTestClient.append(), Map.of(KEY, "k2")));
          assertThat(paused.await(30, TimeUnit.SECONDS)).isTrue();
          Poll.until(Duration.ofSeconds(10), "the leader is staging the forwarded stream",
              () -> staged.get() > stagedBefore);
          toA.cutAll();
          release.countDown();
          Throwable unavailable = catchThrowable(() -> cut.get(60, TimeUnit.SECONDS));
          assertThat(Status.code(unavailable)).isEqualTo("UNAVAILABLE");
          assertThat(unavailable).hasStackTraceContaining("nothing was committed")
              .hasStackTraceContaining("lake.idempotency_key");
          assertThat(a.server().metaStore().get("t")).contains(before);
          assertThat(a.server().metaStore().idempotencyRecord("t", before.generation(), "k2")).isEmpty();
          assertThat(ClusterNodes.ingest(viaB, "t", 200, 20, FlightTestClient.append(), "k2")).isEqualTo(20);
          assertThat(ClusterNodes.ingest(viaB, "t", 200, 20, FlightTestClient.append(), "k2")).isEqualTo(20);
          assertThat(values(viaB, "t")).containsExactlyInAnyOrderElementsOf(
              concat(range(0, 10), range(100, 105), range(200, 220)));

          // 3. Committed, acknowledgement lost, retried on the new leader: the leader registers the ingest, the
          //    connection breaks before its answer reaches the follower (UNKNOWN), the leader goes away, and the
          //    retry on the new leader gets the original result without applying the rows again.
          CountDownLatch committed = new CountDownLatch(1);
          CountDownLatch answerMayGo = new CountDownLatch(1);
          AtomicBoolean armed = new AtomicBoolean(true);
          aStore.get().afterCommit(r -> {
            if (r.name().equals("t") && armed.getAndSet(false)) {
              committed.countDown();
              await(answerMayGo);
            }
          });
          CompletableFuture<Long> lost = CompletableFuture.supplyAsync(() ->
              ClusterNodes.ingest(viaB, "t", 300, 3, FlightTestClient.append(), "k3"));
          assertThat(committed.await(30, TimeUnit.SECONDS)).isTrue();
          toA.cutAll();
          Throwable unknown = catchThrowable(() -> lost.get(60, TimeUnit.SECONDS));
          answerMayGo.countDown();
          assertThat(Status.code(unknown)).isEqualTo("UNKNOWN");
          assertThat(unknown).hasStackTraceContaining("Retry with the same lake.idempotency_key");
          TableRegistration committedVersion = a.server().metaStore().get("t").orElseThrow();
          assertThat(a.server().metaStore().idempotencyRecord("t", committedVersion.generation(), "k3"))
              .as("the ingest whose answer was lost was committed").isPresent();
        }
        aOpen.set(false);
        a.close(); // the old leader goes away (releasing its lease); the follower takes over
        Poll.until(Duration.ofSeconds(15), "node-b took over", () -> b.server().isLeader());
        assertThat(ClusterNodes.status(viaB).get("leader_id").asText()).isEqualTo("node-b");
        assertThat(ClusterNodes.ingest(viaB, "t", 300, 3, FlightTestClient.append(), "k3"))
            .as("the original result").isEqualTo(3);
        assertThat(values(viaB, "t")).containsExactlyInAnyOrderElementsOf(
            concat(range(0, 10), range(100, 105), range(200, 220), range(300, 303)));
        // And the new leader writes on.
        assertThat(ClusterNodes.ingest(viaB, "t", 400, 1, FlightTestClient.append(), "k4")).isEqualTo(1);
        assertThat(values(viaB, "t")).hasSize(39);
      } finally {
        if (aOpen.get()) {
          a.close();
        }
      }
    }
  }

  /**
   * Issue 18, item 3: the leader stalls (its internal endpoint accepts and answers nothing, as under SIGSTOP, and it
   * cannot renew its lease) while followers forward ingests to it. Each forward's deadline passes, the follower
   * re-reads the lease, and once another node holds it the ingest (with its idempotency key) is sent to the new
   * leader and acknowledged while the old one is still stalled: the write stalls about lease + margin, not for the
   * whole pause. Afterwards every ingest is present exactly once.
   */
  @Test
  void forwardingFollowsTheNewLeaderWithinTheLease() throws Exception {
    String registry = "lake-pause-" + UUID.randomUUID();
    int aInternal = ClusterNodes.freePort();
    AtomicReference<LeaseFaultMetaStore> aStore = new AtomicReference<>();
    Duration lease = Duration.parse("PT" + ClusterNodes.SHORT_LEASE.get("lease.duration").toUpperCase());
    Duration margin = Duration.ofMillis(Long.parseLong(ClusterNodes.SHORT_LEASE.get("lease.safety-margin")
        .replace("ms", "")));
    try (TcpProxy toA = TcpProxy.start(aInternal);
        LakeTestServer a = node("pause", registry, "node-a", Map.of("server.internal-port",
            Integer.toString(aInternal), "node.internal-address", "127.0.0.1:" + toA.port()),
            x -> x.wrapMetaStore(st -> {
              aStore.set(new LeaseFaultMetaStore(st));
              return aStore.get();
            }));
        LakeTestServer b = node("pause", registry, "node-b", Map.of(), x -> { });
        LakeTestServer c = node("pause", registry, "node-c", Map.of(), x -> { });
        FlightTestClient viaA = a.client();
        FlightTestClient viaB = b.client();
        FlightTestClient viaC = c.client()) {
      assertThat(a.server().isLeader()).isTrue();
      assertThat(ClusterNodes.ingest(viaA, "t", 0, 10, FlightTestClient.create(), "create-t")).isEqualTo(10);
      long term = ClusterNodes.status(viaB).get("term").asLong();
      // Warm both followers' forwarding connections to the leader.
      assertThat(ClusterNodes.ingest(viaB, "t", 10, 1, FlightTestClient.append(), "warm-b")).isEqualTo(1);
      assertThat(ClusterNodes.ingest(viaC, "t", 11, 1, FlightTestClient.append(), "warm-c")).isEqualTo(1);

      // The leader stalls.
      toA.freeze();
      aStore.get().partition();
      long pausedAt = System.nanoTime();
      CompletableFuture<Long> throughB = CompletableFuture.supplyAsync(() ->
          ClusterNodes.ingest(viaB, "t", 100, 5, FlightTestClient.append(), "kb"));
      CompletableFuture<Long> throughC = CompletableFuture.supplyAsync(() ->
          ClusterNodes.ingest(viaC, "t", 200, 7, FlightTestClient.append(), "kc"));
      Map<String, Long> stalls = new HashMap<>();
      try {
        assertThat(throughB.get(60, TimeUnit.SECONDS)).isEqualTo(5);
        stalls.put("node-b", (System.nanoTime() - pausedAt) / 1_000_000);
        assertThat(throughC.get(60, TimeUnit.SECONDS)).isEqualTo(7);
        stalls.put("node-c", (System.nanoTime() - pausedAt) / 1_000_000);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new AssertionError("a forwarded ingest was not acknowledged while the old leader stalled", e);
      }
      // Acknowledged while the old leader is still stalled, by a new leader in a later term.
      JsonNode status = ClusterNodes.status(viaB);
      assertThat(status.get("leader_id").asText()).isIn("node-b", "node-c");
      assertThat(status.get("term").asLong()).isGreaterThan(term);
      System.out.printf("paused leader: forwarded writes stalled %s ms (lease %s + margin %s = %d ms)%n", stalls,
          lease, margin, lease.plus(margin).toMillis());
      assertThat(stalls.values()).as("loose bound: lease + margin, plus slack for a loaded machine")
          .allSatisfy(ms -> assertThat(ms).isLessThan(lease.plus(margin).plusSeconds(10).toMillis()));

      // The old leader resumes: it commits nothing (its gate is closed, the registry fences it); retries with the
      // same keys return the original results; every ingest is present once.
      toA.thaw();
      aStore.get().heal();
      assertThat(ClusterNodes.ingest(viaA, "t", 100, 5, FlightTestClient.append(), "kb")).isEqualTo(5);
      assertThat(ClusterNodes.ingest(viaB, "t", 200, 7, FlightTestClient.append(), "kc")).isEqualTo(7);
      assertThat(values(viaB, "t")).containsExactlyInAnyOrderElementsOf(
          concat(range(0, 12), range(100, 105), range(200, 207)));
      assertThat(a.server().metaStore().get("t").orElseThrow().term()).isGreaterThan(term);
    }
  }

  private LakeTestServer node(String prefix, String registry, String nodeId, Map<String, String> extra,
      Consumer<dev.lake.flight.LakeServer.Builder> customize) throws Exception {
    Map<String, String> settings = new HashMap<>(ClusterNodes.node(s3, prefix, dynamoDb, registry, nodeId,
        ClusterNodes.SHORT_LEASE));
    settings.put("catalog.ttl", "1h");
    settings.put("catalog.negative-ttl", "1h");
    settings.putAll(extra);
    return LakeTestServer.start(dataDir.resolve(registry).resolve(nodeId), customize, settings);
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never let the answer go");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
