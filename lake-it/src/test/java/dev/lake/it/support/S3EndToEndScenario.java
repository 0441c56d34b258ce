package dev.lake.it.support;

import static dev.lake.it.support.LongTable.ingest;
import static dev.lake.it.support.LongTable.range;
import static dev.lake.it.support.LongTable.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lake.engine.S3Uri;
import dev.lake.metasrv.MaintenanceReport;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.Result;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * One table's whole life on S3 through a real server and client: ingest, query, append, replace, maintenance
 * (compaction), retention cleanup, orphan sweep, drop, garbage collection, recreate. Checks the objects in the
 * bucket at each step. Runs against any S3 and registry the node is configured with (s3proxy + dynoxide, or
 * LocalStack). The node must run with {@code clock} and the default retention window (1 h), drop grace (1 h)
 * and orphan guard (6 h).
 */
public final class S3EndToEndScenario {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final LakeTestServer server;
  private final MutableClock clock;
  private final S3Client s3;
  private final String table;

  public S3EndToEndScenario(LakeTestServer server, MutableClock clock, S3Client s3, String table) {
    this.server = server;
    this.clock = clock;
    this.s3 = s3;
    this.table = table;
  }

  public void run() throws Exception {
    MetaStore store = server.server().metaStore();
    S3Uri root = S3Uri.parse(server.server().dataRoot());
    try (FlightTestClient client = server.client()) {
      // Ingest (create) and query.
      assertThat(ingest(client, table, 0, 1000, FlightTestClient.create())).isEqualTo(1000);
      TableRegistration created = store.get(table).orElseThrow();
      S3Uri location = S3Uri.parse(created.location());
      assertThat(location).isEqualTo(root.resolve(table + "/" + created.generation()));
      assertThat(keys(location, "_versions/")).isNotEmpty();
      assertThat(keys(location, "data/")).isNotEmpty();
      assertThat(client.rows("SELECT COUNT(*), MIN(v), MAX(v) FROM " + table))
          .containsExactly(List.of(1000L, 0L, 999L));

      // Append: three more fragments.
      for (int i = 1; i <= 3; i++) {
        clock.advance(Duration.ofSeconds(1));
        ingest(client, table, i * 1000L, 1000, FlightTestClient.append());
      }
      assertThat(values(client, table)).containsExactlyInAnyOrderElementsOf(range(0, 4000));

      // Replace, then small appends that compaction can merge.
      clock.advance(Duration.ofSeconds(1));
      ingest(client, table, 10_000, 500, LongTable.replace());
      assertThat(values(client, table)).containsExactlyInAnyOrderElementsOf(range(10_000, 10_500));
      for (int i = 0; i < 3; i++) {
        clock.advance(Duration.ofSeconds(1));
        ingest(client, table, 10_500 + i * 100L, 100, FlightTestClient.append());
      }
      List<Long> expected = range(10_000, 10_800);
      TableRegistration beforeCompaction = store.get(table).orElseThrow();
      assertThat(beforeCompaction.generation()).isEqualTo(created.generation());

      // Maintenance through the admin action: compaction registers a new version with the same rows.
      clock.advance(Duration.ofSeconds(1));
      JsonNode maintained = action(client, "lake.maintain_table", table);
      TableRegistration compacted = store.get(table).orElseThrow();
      assertThat(maintained.get("compacted_to_version").isNull()).as("compaction committed: %s", maintained)
          .isFalse();
      assertThat(compacted.version()).isEqualTo(maintained.get("compacted_to_version").asLong())
          .isGreaterThan(beforeCompaction.version());
      assertThat(values(client, table)).containsExactlyInAnyOrderElementsOf(expected);

      // Retention: once every older version left the window, only the registered version's manifest is left,
      // and the data files only old versions referenced are gone.
      int manifestsBefore = keys(location, "_versions/").size();
      clock.advance(Duration.ofHours(2));
      MaintenanceReport retained = server.server().maintenance().retain(table);
      assertThat(retained.versionsRemoved()).isEqualTo(compacted.version() - 1);
      assertThat(keys(location, "_versions/")).hasSize(1).hasSizeLessThan(manifestsBefore);
      assertThat(values(client, table)).containsExactlyInAnyOrderElementsOf(expected);

      // Orphan sweep: a data file no version references is deleted once older than the guard.
      String orphan = location.keyPrefix() + "data/orphan-" + UUID.randomUUID() + ".lance";
      s3.putObject(b -> b.bucket(location.bucket()).key(orphan), RequestBody.fromString("never committed"));
      assertThat(server.server().maintenance().retain(table).orphansDeleted()).as("inside the guard").isZero();
      assertThat(keys(location, "data/")).contains(orphan);
      clock.advance(Duration.ofHours(7));
      assertThat(server.server().maintenance().retain(table).orphansDeleted()).isEqualTo(1);
      assertThat(keys(location, "data/")).doesNotContain(orphan).isNotEmpty();
      assertThat(values(client, table)).containsExactlyInAnyOrderElementsOf(expected);

      // Drop: gone at once for queries; its files only after the grace period.
      JsonNode dropped = action(client, "lake.drop_table", table);
      assertThat(dropped.get("generation").asText()).isEqualTo(created.generation());
      assertThat(store.get(table)).isEmpty();
      assertThat(Status.code(catchThrowable(() -> values(client, table)))).isEqualTo("NOT_FOUND");
      assertThat(server.server().maintenance().collectGarbage()).as("inside the drop grace").isZero();
      assertThat(keys(location, "")).isNotEmpty();
      clock.advance(Duration.ofHours(2));
      assertThat(server.server().maintenance().collectGarbage()).isEqualTo(1);
      assertThat(keys(location, "")).as("the dropped generation's prefix is empty").isEmpty();
      assertThat(store.tombstones()).isEmpty();

      // Recreate: a new generation under a new prefix, starting at version 1 with only the new rows.
      assertThat(ingest(client, table, 20_000, 10, FlightTestClient.create())).isEqualTo(10);
      TableRegistration recreated = store.get(table).orElseThrow();
      S3Uri newLocation = S3Uri.parse(recreated.location());
      assertThat(recreated.generation()).isNotEqualTo(created.generation());
      assertThat(newLocation).isNotEqualTo(location).isEqualTo(root.resolve(table + "/" + recreated.generation()));
      assertThat(recreated.version()).isEqualTo(1);
      assertThat(keys(newLocation, "_versions/")).hasSize(1);
      assertThat(values(client, table)).containsExactlyInAnyOrderElementsOf(range(20_000, 20_010));
      ingest(client, table, 20_010, 5, FlightTestClient.append());
      assertThat(values(client, table)).containsExactlyInAnyOrderElementsOf(range(20_000, 20_015));
    }
  }

  /** Every key below {@code location/<sub>}. */
  private List<String> keys(S3Uri location, String sub) {
    return s3.listObjectsV2Paginator(b -> b.bucket(location.bucket()).prefix(location.keyPrefix() + sub)).contents()
        .stream().map(S3Object::key).sorted().toList();
  }

  private static JsonNode action(FlightTestClient client, String type, String table) throws Exception {
    byte[] body = JSON.writeValueAsBytes(JSON.createObjectNode().put("table", table));
    Iterator<Result> results = client.flight().doAction(new Action(type, body), client.auth());
    JsonNode out = JSON.readTree(results.next().getBody());
    results.forEachRemaining(r -> { });
    return out;
  }
}
