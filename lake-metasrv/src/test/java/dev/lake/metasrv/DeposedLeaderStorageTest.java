package dev.lake.metasrv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.engine.CompactionOptions;
import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.rocksdb.RocksDbMetaStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, item 1 (docs/design.md invariant 5 at the storage level): a leader that loses its lease while operations
 * are in flight or queued on it makes no Lance commit of any kind afterwards — no repair Restore of a registration it
 * read before it was deposed, no compaction commit, no cleanup, no file deletion — while the new leader goes on
 * committing. Two nodes share one real RocksDB registry and one Lance data root; the old leader's "pause" is a
 * registry answer held back after it was read (what a node sees when SIGSTOP hits right after a read returned),
 * and its own monotonic clock running past its gate deadline.
 */
class DeposedLeaderStorageTest {
  private static final LeaseSettings LEASE = new LeaseSettings(Duration.ofSeconds(10), Duration.ofSeconds(3),
      Duration.ofSeconds(1), Duration.ofSeconds(1));

  @TempDir
  Path dir;

  private final BufferAllocator allocator = new RootAllocator();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final ClusterLeadershipTest.FakeTicker tickerA = new ClusterLeadershipTest.FakeTicker();
  private final ClusterLeadershipTest.FakeTicker tickerB = new ClusterLeadershipTest.FakeTicker();
  private MetaStore rocks;
  private StaleAnswerMetaStore seenByA;
  private Node a;
  private Node b;
  private ExecutorService threads;

  /** One node's write path: its own leadership, locks, engine, coordinator and maintenance. */
  private final class Node implements AutoCloseable {
    final ClusterLeadership leadership;
    final LanceTableEngine engine = new LanceTableEngine(allocator, Map.of());
    final WriteCoordinator writes;
    final Maintenance maintenance;

    Node(String id, MetaStore store, Ticker ticker) {
      leadership = new ClusterLeadership(store, id, LEASE, clock, ticker);
      leadership.advertise("127.0.0.1:1", "127.0.0.1:2");
      TableLocks locks = new TableLocks(30_000);
      TableLocations locations = new TableLocations(dir.resolve("tables").toString());
      MaintenanceSettings settings = new MaintenanceSettings(Duration.ofSeconds(1), Duration.ofMillis(1),
          Duration.ofSeconds(1), CompactionOptions.defaults());
      writes = new WriteCoordinator(store, engine, leadership, locks, locations, allocator, clock,
          WriteInterceptor.NONE);
      maintenance = new Maintenance(store, engine, leadership, locks, locations, clock, settings,
          WriteInterceptor.NONE);
    }

    WriteResult write(String table, IngestRequest.IfMissing ifMissing, IngestRequest.IfExists ifExists,
        List<Long> values) {
      return writes.ingest(new IngestRequest(table, ifMissing, ifExists, Optional.empty()),
          MetasrvHarness.reader(allocator, values));
    }

    WriteResult create(String table, List<Long> values) {
      return write(table, IngestRequest.IfMissing.CREATE, IngestRequest.IfExists.FAIL, values);
    }

    WriteResult append(String table, List<Long> values) {
      return write(table, IngestRequest.IfMissing.FAIL, IngestRequest.IfExists.APPEND, values);
    }

    @Override
    public void close() {
      leadership.close();
      engine.close();
    }
  }

  @BeforeEach
  void start() {
    rocks = RocksDbMetaStore.open(dir.resolve("registry"));
    seenByA = new StaleAnswerMetaStore(rocks);
    a = new Node("node-a", seenByA, tickerA);
    b = new Node("node-b", rocks, tickerB);
    threads = Executors.newFixedThreadPool(5, r -> new Thread(r, "unnamed"));
  }

  @AfterEach
  void stop() throws InterruptedException {
    seenByA.release();
    threads.shutdownNow();
    threads.awaitTermination(30, TimeUnit.SECONDS);
    a.close();
    b.close();
    rocks.close();
    allocator.close();
  }

  @Test
  void deposedLeaderCommitsNothingToStorage() throws Exception {
    assertThat(a.leadership.campaignOnce().action()).isEqualTo("acquired");
    assertThat(b.leadership.campaignOnce().action()).isEqualTo("following");
    for (String table : List.of("t", "c", "r", "d")) {
      a.create(table, List.of(1L, 2L));
      for (long i = 3; i <= 6; i++) {
        a.append(table, List.of(i));
      }
    }
    a.create("g", List.of(1L));
    String droppedLocation = a.writes.drop("g").location();

    // Operations in flight on A, each paused right after a registry read returned (the appends and the compaction
    // under the table lock, with a replace queued behind the append), while A is still the leader.
    Map<String, Future<?>> running = new LinkedHashMap<>();
    running.put("append", run("a-append", 2, () -> a.append("t", List.of(100L))));
    running.put("compact", run("a-compact", 2, () -> a.maintenance.compact("c")));
    running.put("retain", run("a-retain", 1, () -> a.maintenance.retain("r")));
    running.put("drop", run("a-drop", 1, () -> a.writes.drop("d")));
    awaitWaiting(4);
    running.put("replace", run("a-replace", 2, () -> a.write("t", IngestRequest.IfMissing.FAIL,
        IngestRequest.IfExists.REPLACE, List.of(200L))));

    // A's lease runs out on its own monotonic clock and on everyone's wall clock; B takes over and commits.
    tickerA.advance(LEASE.gateWindow());
    clock.advance(LEASE.duration().plusSeconds(1));
    ClusterLeadership.CampaignResult took = b.leadership.campaignOnce();
    assertThat(took.action()).isEqualTo("took over");
    for (String table : List.of("t", "c", "r", "d")) {
      b.append(table, List.of(7L));
      b.append(table, List.of(8L));
    }
    Map<String, TableRegistration> registeredByB = new LinkedHashMap<>();
    Map<String, Long> latestByB = new LinkedHashMap<>();
    for (String table : List.of("t", "c", "r", "d")) {
      TableRegistration r = rocks.get(table).orElseThrow();
      registeredByB.put(table, r);
      latestByB.put(table, b.engine.latestVersion(r.location()));
      assertThat(latestByB.get(table)).isEqualTo(r.version());
    }

    // A resumes: everything it had in flight or queued fails before touching storage.
    seenByA.release();
    for (Map.Entry<String, Future<?>> op : running.entrySet()) {
      assertThatThrownBy(() -> op.getValue().get(60, TimeUnit.SECONDS)).as(op.getKey())
          .isInstanceOf(ExecutionException.class).cause().isInstanceOf(NotLeaderException.class);
    }
    assertThatThrownBy(a.maintenance::collectGarbage).isInstanceOf(NotLeaderException.class);
    assertThatThrownBy(() -> a.maintenance.maintain("t")).isInstanceOf(NotLeaderException.class);

    for (String table : List.of("t", "c", "r", "d")) {
      TableRegistration r = rocks.get(table).orElseThrow();
      assertThat(r).as(table + ": the registration is B's").isEqualTo(registeredByB.get(table));
      assertThat(a.engine.latestVersion(r.location())).as(table + ": no Lance version after B's last commit")
          .isEqualTo(latestByB.get(table));
      assertThat(a.engine.dataChangingVersionsAfter(r.location(), r.version())).isEmpty();
      for (long v = 1; v <= r.version(); v++) {
        try (TableSnapshot s = a.engine.open(r.location(), v, allocator)) {
          assertThat(s).as(table + "@v" + v + " still readable: no cleanup by A").isNotNull();
        }
      }
      assertThat(values(r)).as(table + ": B's rows, nothing rolled back")
          .containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    }
    assertThat(a.engine.exists(droppedLocation)).as("A deleted no dropped generation's files").isTrue();

    // And B, the live leader, keeps committing on top.
    b.append("t", List.of(9L));
    assertThat(values(rocks.get("t").orElseThrow())).hasSize(9);
  }

  private Future<?> run(String thread, int heldCall, Supplier<?> operation) {
    seenByA.holdAnswer(thread, heldCall);
    return threads.submit(() -> {
      Thread.currentThread().setName(thread);
      try {
        return operation.get();
      } finally {
        Thread.currentThread().setName("unnamed");
      }
    });
  }

  private void awaitWaiting(int n) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (seenByA.waiting.get() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + seenByA.waiting.get() + " of " + n + " operations reached their pause");
      }
      Thread.sleep(10);
    }
  }

  private List<Long> values(TableRegistration r) {
    List<Long> out = new ArrayList<>();
    try (TableSnapshot snapshot = b.engine.open(r.location(), r.version(), allocator);
        var reader = snapshot.scan(List.of("v"), Optional.empty(), Optional.empty(), 1024)) {
      while (reader.loadNextBatch()) {
        var v = (org.apache.arrow.vector.BigIntVector) reader.getVectorSchemaRoot().getVector(0);
        for (int i = 0; i < v.getValueCount(); i++) {
          out.add(v.get(i));
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out;
  }
}
