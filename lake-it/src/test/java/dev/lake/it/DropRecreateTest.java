package dev.lake.it;

import static dev.lake.it.CommitProtocolTest.range;
import static dev.lake.it.CommitProtocolTest.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.it.support.AdminClient;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.MutableClock;
import dev.lake.it.support.Status;
import dev.lake.metasrv.WriteInterceptor;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.VersionRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md invariants 3 and 4 through the real server: drop is compare-and-delete on the registration it
 * resolved, so a stale drop never removes a replacement; each incarnation has its own generation and location,
 * and a dropped incarnation's files are collected after the grace period, never before, and never read again.
 */
class DropRecreateTest {
  @TempDir
  Path dataDir;

  @Test
  void pausedDropThenRecreateThenResumedDropPreservesReplacement() throws Exception {
    AtomicBoolean pauseNextDrop = new AtomicBoolean(true);
    CountDownLatch paused = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    WriteInterceptor pauseFirstDrop = new WriteInterceptor() {
      @Override
      public void beforeDropLock(String table) {
        if (table.equals("t") && pauseNextDrop.compareAndSet(true, false)) {
          paused.countDown();
          try {
            if (!resume.await(60, TimeUnit.SECONDS)) {
              throw new IllegalStateException("the test never resumed the paused drop");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        }
      }
    };
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "stale-drop-client"));
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> b.writeInterceptor(pauseFirstDrop),
            Map.of("maintenance.interval", "1h"));
        FlightTestClient staleClient = server.client();
        FlightTestClient client = server.client()) {
      MetaStore store = server.server().metaStore();
      ingest(client, "t", 0, 10, FlightTestClient.create());
      TableRegistration original = store.get("t").orElseThrow();

      // The first drop resolves the registration of the original incarnation, then pauses before the lock.
      Future<Throwable> staleDrop = pool.submit(() -> catchThrowable(() -> AdminClient.drop(staleClient, "t")));
      assertThat(paused.await(60, TimeUnit.SECONDS)).as("the first drop reached the pause").isTrue();

      // Meanwhile a second drop removes that incarnation and the table is recreated with new rows.
      JsonNode dropped = AdminClient.drop(client, "t");
      assertThat(dropped.get("generation").asText()).isEqualTo(original.generation());
      ingest(client, "t", 100, 5, FlightTestClient.create());
      ingest(client, "t", 105, 3, FlightTestClient.append());
      TableRegistration replacement = store.get("t").orElseThrow();
      assertThat(replacement.generation()).isNotEqualTo(original.generation());

      resume.countDown();
      Throwable stale = staleDrop.get(60, TimeUnit.SECONDS);

      assertThat(stale).as("the resumed drop's compare-and-delete fails").isNotNull();
      assertThat(Status.code(stale)).isEqualTo("ABORTED");
      assertThat(store.get("t")).as("the replacement registration is intact").contains(replacement);
      assertThat(values(client, "t")).as("the replacement's rows, queryable")
          .containsExactlyInAnyOrderElementsOf(range(100, 108));
      assertThat(store.history("t", replacement.generation()).stream().map(VersionRecord::version).toList())
          .containsExactly(1L, 2L);
      assertThat(store.tombstones()).as("only the original incarnation was dropped")
          .extracting(Tombstone::generation).containsExactly(original.generation());
      try (FlightTestClient fresh = server.client()) {
        assertThat(values(fresh, "t")).containsExactlyInAnyOrderElementsOf(range(100, 108));
      }
    } finally {
      resume.countDown();
      pool.shutdownNow();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void recreatedTableNeverSeesOldFiles() throws Exception {
    MutableClock clock = new MutableClock(Instant.parse("2026-03-01T00:00:00Z"));
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> b.clock(clock),
            Map.of("maintenance.interval", "1h", "gc.drop-grace", "1h"));
        FlightTestClient client = server.client()) {
      MetaStore store = server.server().metaStore();
      Path root = Path.of(server.server().dataRoot());
      ingest(client, "t", 0, 10, FlightTestClient.create());
      ingest(client, "t", 10, 5, FlightTestClient.append());
      TableRegistration old = store.get("t").orElseThrow();
      Path oldDir = root.resolve("t").resolve(old.generation());
      assertThat(Path.of(old.location()).normalize()).isEqualTo(oldDir);
      assertThat(oldDir).isDirectory();

      AdminClient.drop(client, "t");
      clock.advance(Duration.ofMinutes(1));
      ingest(client, "t", 100, 5, FlightTestClient.create());
      ingest(client, "t", 105, 3, FlightTestClient.append());

      TableRegistration recreated = store.get("t").orElseThrow();
      Path newDir = root.resolve("t").resolve(recreated.generation());
      assertThat(recreated.generation()).as("a new generation").isNotEqualTo(old.generation());
      assertThat(Path.of(recreated.location()).normalize()).as("a new location").isEqualTo(newDir)
          .isNotEqualTo(oldDir);
      assertThat(recreated.version()).as("Lance restarted at version 1 in the new location").isEqualTo(2);
      assertThat(values(client, "t")).as("only the new incarnation's rows")
          .containsExactlyInAnyOrderElementsOf(range(100, 108));

      // Before the grace period: nothing is collected, the old files and the tombstone stay.
      assertThat(server.server().maintenance().collectGarbage()).isZero();
      clock.advance(Duration.ofMinutes(58));
      assertThat(server.server().maintenance().collectGarbage()).as("59 minutes after the drop").isZero();
      assertThat(oldDir).as("the old generation's files survive the grace period").isDirectory();
      assertThat(store.tombstones()).extracting(Tombstone::generation).containsExactly(old.generation());

      // After the grace period: the old generation's directory, history and tombstone are gone.
      clock.advance(Duration.ofMinutes(2));
      assertThat(server.server().maintenance().collectGarbage()).isEqualTo(1);
      assertThat(Files.exists(oldDir)).as("the old generation's directory is deleted").isFalse();
      assertThat(store.tombstones()).as("the tombstone is deleted").isEmpty();
      assertThat(store.history("t", old.generation())).as("the old generation's history is deleted").isEmpty();
      assertThat(newDir).isDirectory();
      assertThat(store.get("t")).contains(recreated);
      try (FlightTestClient fresh = server.client()) {
        assertThat(values(fresh, "t")).containsExactlyInAnyOrderElementsOf(range(100, 108));
        ingest(fresh, "t", 200, 2, FlightTestClient.append());
        assertThat(values(fresh, "t")).containsExactlyInAnyOrderElementsOf(concat(range(100, 108), range(200, 202)));
      }
      assertThat(server.server().maintenance().collectGarbage()).isZero();
    }
  }

  static void ingest(FlightTestClient client, String table, long first, int count, TableDefinitionOptions options) {
    try (VectorSchemaRoot root = CommitProtocolTest.batch(client.allocator(), first, count)) {
      client.ingest(table, root, options);
    }
  }

  @SafeVarargs
  static List<Long> concat(List<Long>... lists) {
    List<Long> out = new ArrayList<>();
    for (List<Long> l : lists) {
      out.addAll(l);
    }
    return out;
  }
}
