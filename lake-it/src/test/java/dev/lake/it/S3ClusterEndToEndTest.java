package dev.lake.it;

import static dev.lake.it.support.LongTable.concat;
import static dev.lake.it.support.LongTable.ingest;
import static dev.lake.it.support.LongTable.range;
import static dev.lake.it.support.LongTable.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.S3Uri;
import dev.lake.it.support.ClusterSettings;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.MutableClock;
import dev.lake.it.support.S3EndToEndScenario;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.dynamodb.Dynoxide;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.flight.Action;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster-configured node (tables on S3, registry in DynamoDB) through a real server and client, against s3proxy
 * and dynoxide: the full table lifecycle, and docs/design.md invariant 4 on S3 (each incarnation its own generation and
 * prefix; an old incarnation's objects never block or leak into a new one, and are collected later).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3ClusterEndToEndTest {
  private static final String BUCKET = "lake-cluster";

  @TempDir
  Path dataDir;

  private S3ProxyServer s3;
  private Dynoxide dynamoDb;

  @BeforeAll
  void startStandIns() throws Exception {
    s3 = S3ProxyServer.start(BUCKET);
    dynamoDb = Dynoxide.start();
  }

  @AfterAll
  void stopStandIns() throws Exception {
    dynamoDb.close();
    s3.close();
  }

  @Test
  void s3EndToEndIngestQueryMaintainDrop() throws Exception {
    MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    try (LakeTestServer server = start("e2e", clock)) {
      assertThat(server.server().metaStore().describe()).startsWith("dynamodb:");

      new S3EndToEndScenario(server, clock, s3.client(), "events").run();

      assertThat(Files.exists(dataDir.resolve("e2e").resolve("tables"))).as("no table data on local disk").isFalse();
    }
  }

  @Test
  void s3DropAndRecreateSameNameStartsClean() throws Exception {
    MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    try (LakeTestServer server = start("recreate", clock);
        FlightTestClient client = server.client()) {
      MetaStore store = server.server().metaStore();
      ingest(client, "t", 0, 10, FlightTestClient.create());
      ingest(client, "t", 10, 10, FlightTestClient.append());
      ingest(client, "t", 20, 10, FlightTestClient.append());
      TableRegistration first = store.get("t").orElseThrow();
      S3Uri firstLocation = S3Uri.parse(first.location());
      List<String> firstObjects = s3.keys(firstLocation.keyPrefix());
      assertThat(first.version()).isEqualTo(3);

      drop(client, "t");
      ingest(client, "t", 100, 5, FlightTestClient.create());
      TableRegistration second = store.get("t").orElseThrow();
      S3Uri secondLocation = S3Uri.parse(second.location());

      // A new generation under a new prefix beside the old one, starting at version 1 with only the new rows,
      // while the old incarnation's manifests and data are still there (inside the drop grace).
      assertThat(second.generation()).isNotEqualTo(first.generation());
      assertThat(secondLocation).isNotEqualTo(firstLocation);
      assertThat(secondLocation.key()).startsWith("recreate/t/");
      assertThat(firstLocation.key()).startsWith("recreate/t/");
      assertThat(second.version()).isEqualTo(1);
      assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(range(100, 105));
      assertThat(s3.keys(firstLocation.keyPrefix())).isEqualTo(firstObjects);
      assertThat(s3.keys(secondLocation.keyPrefix())).noneMatch(firstObjects::contains);

      // The new incarnation grows on its own: version 2, its rows only.
      ingest(client, "t", 105, 5, FlightTestClient.append());
      assertThat(store.get("t").orElseThrow().version()).isEqualTo(2);
      assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(range(100, 110));

      // After the grace period the old generation's objects are collected; the new one is untouched.
      List<String> secondObjects = s3.keys(secondLocation.keyPrefix());
      clock.advance(Duration.ofHours(2));
      assertThat(server.server().maintenance().collectGarbage()).isEqualTo(1);
      assertThat(s3.keys(firstLocation.keyPrefix())).isEmpty();
      assertThat(s3.keys(secondLocation.keyPrefix())).isEqualTo(secondObjects);
      assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(concat(range(100, 110)));

      // Dropping and recreating again after collection starts clean too.
      drop(client, "t");
      clock.advance(Duration.ofHours(2));
      assertThat(server.server().maintenance().collectGarbage()).isEqualTo(1);
      ingest(client, "t", 500, 1, FlightTestClient.create());
      TableRegistration third = store.get("t").orElseThrow();
      assertThat(third.generation()).isNotIn(first.generation(), second.generation());
      assertThat(third.version()).isEqualTo(1);
      assertThat(values(client, "t")).containsExactly(500L);
      assertThat(s3.keys("recreate/t/")).allMatch(k -> k.startsWith(S3Uri.parse(third.location()).keyPrefix()));
    }
  }

  private LakeTestServer start(String name, MutableClock clock) throws Exception {
    String table = "lake-" + name + "-" + UUID.randomUUID();
    return LakeTestServer.start(dataDir.resolve(name), b -> b.clock(clock),
        ClusterSettings.of(s3, name, dynamoDb, table));
  }

  private static void drop(FlightTestClient client, String table) {
    client.flight().doAction(new Action("lake.drop_table",
        ("{\"table\":\"" + table + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8)), client.auth())
        .forEachRemaining(r -> { });
  }
}
