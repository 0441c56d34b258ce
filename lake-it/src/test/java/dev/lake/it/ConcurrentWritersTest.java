package dev.lake.it;

import static dev.lake.it.CommitProtocolTest.range;
import static dev.lake.it.CommitProtocolTest.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Status;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md invariants 2, 3 and 10 under concurrency, through Flight ingest: writes to one table are serialized,
 * each acknowledged ingest is exactly one registered version holding exactly its rows, and nothing unacknowledged
 * ever becomes visible.
 */
class ConcurrentWritersTest {
  private static final int SHARED_WRITERS = 8;
  private static final int SOLO_WRITERS = 8;
  private static final int INGESTS_PER_WRITER = 5;
  private static final int ROWS_PER_INGEST = 25;

  @TempDir
  Path dataDir;

  /** One ingest attempt: its table, its rows, and the code it got (OK = acknowledged). */
  record Attempt(String table, List<Long> rows, String outcome) {}

  @Test
  void concurrentWritersLoseNothing() throws Exception {
    List<String> tables = new ArrayList<>();
    tables.add("shared");
    for (int i = 0; i < SOLO_WRITERS; i++) {
      tables.add("solo_" + i);
    }
    List<Attempt> attempts = Collections.synchronizedList(new ArrayList<>());
    int writers = SHARED_WRITERS + SOLO_WRITERS;
    ExecutorService pool = Executors.newFixedThreadPool(writers, r -> new Thread(r, "concurrent-writer"));
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> {}, Map.of("maintenance.interval", "1h"));
        FlightTestClient admin = server.client()) {
      // Every table exists with one seed row (a negative value) before the writers start.
      for (int i = 0; i < tables.size(); i++) {
        try (VectorSchemaRoot seed = CommitProtocolTest.batch(admin.allocator(), -(i + 1), 1)) {
          admin.ingest(tables.get(i), seed, FlightTestClient.create());
        }
      }
      CyclicBarrier start = new CyclicBarrier(writers);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        String table = w < SHARED_WRITERS ? "shared" : "solo_" + (w - SHARED_WRITERS);
        done.add(pool.submit(() -> {
          try (FlightTestClient client = server.client()) {
            start.await(60, TimeUnit.SECONDS);
            for (int k = 0; k < INGESTS_PER_WRITER; k++) {
              long first = (long) (writer * INGESTS_PER_WRITER + k) * 1_000;
              List<Long> rows = range(first, first + ROWS_PER_INGEST);
              String outcome;
              try (VectorSchemaRoot batch = CommitProtocolTest.batch(client.allocator(), first, ROWS_PER_INGEST)) {
                long acked = client.ingest(table, batch, FlightTestClient.append());
                outcome = acked == ROWS_PER_INGEST ? "OK" : "OK_WITH_COUNT_" + acked;
              } catch (RuntimeException e) {
                outcome = Status.code(e);
              }
              attempts.add(new Attempt(table, rows, outcome));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }

      MetaStore store = server.server().metaStore();
      try (BufferAllocator allocator = new RootAllocator();
          LanceTableEngine engine = new LanceTableEngine(allocator, Map.of())) {
        for (int i = 0; i < tables.size(); i++) {
          String table = tables.get(i);
          List<Long> seed = List.of((long) -(i + 1));
          List<List<Long>> acknowledged = attempts.stream()
              .filter(a -> a.table().equals(table) && a.outcome().equals("OK")).map(Attempt::rows).toList();
          List<Long> unacknowledged = attempts.stream()
              .filter(a -> a.table().equals(table) && !a.outcome().equals("OK"))
              .flatMap(a -> a.rows().stream()).toList();
          List<Long> expected = new ArrayList<>(seed);
          acknowledged.forEach(expected::addAll);

          // Every acknowledged row is present exactly once; nothing unacknowledged.
          List<Long> visible = values(admin, table);
          assertThat(visible).as("rows of %s", table).containsExactlyInAnyOrderElementsOf(expected);
          assertThat(visible).as("unacknowledged rows of %s", table).filteredOn(unacknowledged::contains).isEmpty();

          // Registered versions strictly increase, with no gap: one history item per acknowledged ingest.
          TableRegistration registration = store.get(table).orElseThrow();
          List<VersionRecord> history = store.history(table, registration.generation());
          assertThat(history).as("history of %s: the create and one item per acknowledged ingest", table)
              .hasSize(1 + acknowledged.size());
          for (int h = 1; h < history.size(); h++) {
            assertThat(history.get(h).version()).as("history of %s", table)
                .isEqualTo(history.get(h - 1).version() + 1);
            assertThat(history.get(h).registeredAt()).isAfterOrEqualTo(history.get(h - 1).registeredAt());
          }
          assertThat(history.get(history.size() - 1).version()).isEqualTo(registration.version());

          // Each registered version adds exactly one acknowledged ingest's rows to its predecessor.
          List<List<Long>> matched = new ArrayList<>();
          Map<Long, Integer> previous = multiset(valuesAt(engine, allocator, registration.location(),
              history.get(0).version()));
          assertThat(previous).isEqualTo(multiset(seed));
          for (int h = 1; h < history.size(); h++) {
            Map<Long, Integer> current = multiset(valuesAt(engine, allocator, registration.location(),
                history.get(h).version()));
            List<Long> added = difference(current, previous);
            assertThat(added).as("%s version %d holds every row of version %d", table, history.get(h).version(),
                history.get(h - 1).version()).isNotNull();
            List<Long> sortedAdded = added.stream().sorted().toList();
            assertThat(acknowledged).as("%s version %d adds exactly one acknowledged ingest", table,
                history.get(h).version()).contains(sortedAdded);
            matched.add(sortedAdded);
            previous = current;
          }
          assertThat(matched).as("every acknowledged ingest of %s maps to exactly one version", table)
              .containsExactlyInAnyOrderElementsOf(acknowledged);
        }
        assertThat(engine.openHandles()).isZero();
      }
      assertThat(attempts).hasSize(writers * INGESTS_PER_WRITER);
      assertThat(attempts).as("concurrent appends on one leader are serialized, never refused")
          .allMatch(a -> a.outcome().equals("OK"));
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static List<Long> valuesAt(LanceTableEngine engine, BufferAllocator allocator, String location,
      long version) throws Exception {
    List<Long> out = new ArrayList<>();
    try (TableSnapshot snapshot = engine.open(location, version, allocator);
        ArrowReader reader = snapshot.scan(List.of("v"), Optional.empty(), Optional.empty(), 4096)) {
      while (reader.loadNextBatch()) {
        BigIntVector v = (BigIntVector) reader.getVectorSchemaRoot().getVector(0);
        for (int i = 0; i < v.getValueCount(); i++) {
          out.add(v.get(i));
        }
      }
    }
    return out;
  }

  private static Map<Long, Integer> multiset(List<Long> values) {
    Map<Long, Integer> m = new HashMap<>();
    values.forEach(v -> m.merge(v, 1, Integer::sum));
    return m;
  }

  /** {@code bigger - smaller} as a list, or null when {@code smaller} is not contained in {@code bigger}. */
  private static List<Long> difference(Map<Long, Integer> bigger, Map<Long, Integer> smaller) {
    for (Map.Entry<Long, Integer> e : smaller.entrySet()) {
      if (bigger.getOrDefault(e.getKey(), 0) < e.getValue()) {
        return null;
      }
    }
    List<Long> out = new ArrayList<>();
    bigger.forEach((v, n) -> {
      for (int i = n - smaller.getOrDefault(v, 0); i > 0; i--) {
        out.add(v);
      }
    });
    return out;
  }
}
