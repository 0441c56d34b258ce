package dev.lake.it;

import static dev.lake.it.CommitProtocolTest.range;
import static dev.lake.it.CommitProtocolTest.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Poll;
import dev.lake.it.support.TricklingReader;
import dev.lake.registry.TableRegistration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md "Write flow": data files are written outside the table lock, so a slow client holds no lock and does
 * not delay other writers of the same table.
 */
class SlowIngestTest {
  @TempDir
  Path dataDir;

  @Test
  void slowIngestDoesNotBlockOtherWriters() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "slow-ingest-client"));
    CountDownLatch paused = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> {}, Map.of("maintenance.interval", "1h"));
        FlightTestClient slow = server.client();
        FlightTestClient other = server.client()) {
      try (VectorSchemaRoot seed = CommitProtocolTest.batch(other.allocator(), 0, 10)) {
        other.ingest("t", seed, FlightTestClient.create());
      }
      TableRegistration created = server.server().metaStore().get("t").orElseThrow();
      Path dataFiles = Path.of(created.location()).resolve("data");
      Set<Path> before = files(dataFiles);

      // The slow client sends 5,000 rows, then stalls before its last batch until the test releases it.
      Future<Long> slowIngest = pool.submit(() -> {
        try (TricklingReader reader = new TricklingReader(slow.allocator(),
            List.of(range(1_000, 6_000), range(9_000, 9_010)), 1, paused, release, 120)) {
          return slow.sql().executeIngest(reader, new FlightSqlClient.ExecuteIngestOptions("t",
              FlightTestClient.append(), null, null, Map.of()), slow.auth());
        }
      });
      assertThat(paused.await(60, TimeUnit.SECONDS)).as("the slow client sent its first batch").isTrue();
      // The server is streaming the slow ingest into data files (it has begun writing a new one).
      Poll.until(Duration.ofSeconds(60), "the server writes the slow ingest's data files",
          () -> !files(dataFiles).stream().allMatch(before::contains));

      // Another writer of the same table is acknowledged, and visible, while the slow ingest is still stalled.
      long acknowledged;
      try (VectorSchemaRoot rows = CommitProtocolTest.batch(other.allocator(), 500, 7)) {
        acknowledged = other.ingest("t", rows, FlightTestClient.append());
      }
      assertThat(acknowledged).isEqualTo(7);
      assertThat(slowIngest).as("the slow ingest is still stalled: the other writer did not wait for it")
          .isNotDone();
      assertThat(values(other, "t")).containsExactlyInAnyOrderElementsOf(concat(range(0, 10), range(500, 507)));
      TableRegistration afterOther = server.server().metaStore().get("t").orElseThrow();
      assertThat(afterOther.version()).isEqualTo(created.version() + 1);

      release.countDown();
      assertThat(slowIngest.get(60, TimeUnit.SECONDS)).isEqualTo(5_010);
      assertThat(values(other, "t")).containsExactlyInAnyOrderElementsOf(
          concat(range(0, 10), range(500, 507), range(1_000, 6_000), range(9_000, 9_010)));
      assertThat(server.server().metaStore().get("t").orElseThrow().version())
          .as("the slow ingest committed on top of the other writer's version").isGreaterThan(afterOther.version());
    } finally {
      release.countDown();
      pool.shutdownNow();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static Set<Path> files(Path dir) {
    if (!Files.isDirectory(dir)) {
      return Set.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SafeVarargs
  private static List<Long> concat(List<Long>... lists) {
    List<Long> out = new ArrayList<>();
    for (List<Long> l : lists) {
      out.addAll(l);
    }
    return out;
  }
}
