package dev.lake.it;

import static dev.lake.it.CommitProtocolTest.range;
import static dev.lake.it.CommitProtocolTest.values;
import static dev.lake.it.DropRecreateTest.concat;
import static dev.lake.it.DropRecreateTest.ingest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.engine.DatasetNotFoundException;
import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.MutableClock;
import dev.lake.metasrv.MaintenanceReport;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md invariant 9 on local disk: retention keeps every version that was current at any moment within the
 * window, as the registry's history says (not Lance's creation times): an idle table's version that was created
 * long ago but superseded a moment ago stays readable, also while a query streams it during cleanup; versions that
 * left the window are removed. (The S3 form of this test runs on s3proxy.)
 */
class LocalRetentionTest {
  private static final Duration WINDOW = Duration.ofHours(1);
  private static final int FRAGMENTS = 24;

  @TempDir
  Path dataDir;

  private final MutableClock clock = new MutableClock(Instant.parse("2026-02-01T00:00:00Z"));
  private BufferAllocator allocator;
  private LanceTableEngine engine;

  @BeforeEach
  void openEngine() {
    allocator = new RootAllocator();
    engine = new LanceTableEngine(allocator, Map.of());
  }

  @AfterEach
  void closeEngine() {
    long handles = engine.openHandles();
    engine.close();
    allocator.close();
    assertThat(handles).as("Lance handles left open by the test").isZero();
  }

  @Test
  void cleanupNeverRemovesVersionsInsideRetentionWindowLocally() throws Exception {
    try (LakeTestServer server = start()) {
      MetaStore store = server.server().metaStore();
      // t0: versions 1..3 are registered within seconds; then the table stays idle for 10 windows.
      try (FlightTestClient client = server.client()) {
        ingest(client, "t", 0, 10, FlightTestClient.create());
        clock.advance(Duration.ofSeconds(1));
        ingest(client, "t", 10, 10, FlightTestClient.append());
        clock.advance(Duration.ofSeconds(1));
        ingest(client, "t", 20, 10, FlightTestClient.append());
      }
      TableRegistration n = store.get("t").orElseThrow();
      assertThat(n.version()).isEqualTo(3);
      clock.advance(WINDOW.multipliedBy(10));

      // t1: an append supersedes version N (created ten windows ago) now.
      try (FlightTestClient client = server.client()) {
        ingest(client, "t", 100, 5, FlightTestClient.append());
      }
      TableRegistration latest = store.get("t").orElseThrow();
      assertThat(latest.version()).isEqualTo(4);
      clock.advance(Duration.ofMinutes(1));

      // A query streams version N while retention runs.
      List<Long> streamed = new ArrayList<>();
      MaintenanceReport report;
      try (TableSnapshot snapshot = engine.open(n.location(), n.version(), allocator);
          ArrowReader reader = snapshot.scan(List.of("v"), Optional.empty(), Optional.empty(), 4)) {
        assertThat(reader.loadNextBatch()).isTrue();
        collect(reader, streamed);

        report = server.server().maintenance().retain("t");

        while (reader.loadNextBatch()) {
          collect(reader, streamed);
        }
      }
      assertThat(streamed).as("the query streaming version N during cleanup completes")
          .containsExactlyInAnyOrderElementsOf(range(0, 30));

      assertThat(report.versionsRemoved()).as("versions 1 and 2 left the window").isEqualTo(2);
      assertThat(report.historyExpired()).isEqualTo(2);
      assertThat(valuesAt(n.location(), n.version())).as("version N, superseded a minute ago, is readable")
          .containsExactlyInAnyOrderElementsOf(range(0, 30));
      assertThat(valuesAt(latest.location(), latest.version()))
          .containsExactlyInAnyOrderElementsOf(concat(range(0, 30), range(100, 105)));
      for (long gone : List.of(1L, 2L)) {
        assertThatThrownBy(() -> valuesAt(n.location(), gone)).as("version %d left the window", gone)
            .isInstanceOf(DatasetNotFoundException.class);
      }
      assertThat(store.history("t", n.generation()).stream().map(VersionRecord::version).toList())
          .containsExactly(3L, 4L);

      // Once version N has been superseded for longer than the window, it goes too; the registered one stays.
      clock.advance(WINDOW);
      assertThat(server.server().maintenance().retain("t").versionsRemoved()).isEqualTo(1);
      assertThatThrownBy(() -> valuesAt(n.location(), n.version())).isInstanceOf(DatasetNotFoundException.class);
      assertThat(store.history("t", n.generation()).stream().map(VersionRecord::version).toList())
          .containsExactly(4L);
      try (FlightTestClient client = server.client()) {
        assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(concat(range(0, 30), range(100, 105)));
      }
    }
  }

  /**
   * The same rule when the superseding write is a replace: version N's data files are then referenced by N alone,
   * so removing N would break the query streaming it.
   */
  @Test
  void replacedVersionInsideRetentionWindowStaysStreamableDuringCleanup() throws Exception {
    try (LakeTestServer server = start()) {
      MetaStore store = server.server().metaStore();
      // 24 fragments: more than a Lance scan opens ahead (16 here), so a removed file would break the stream.
      try (FlightTestClient client = server.client()) {
        ingest(client, "t", 0, 100, FlightTestClient.create());
        for (int f = 1; f < FRAGMENTS; f++) {
          clock.advance(Duration.ofSeconds(1));
          ingest(client, "t", f * 100L, 100, FlightTestClient.append());
        }
      }
      TableRegistration n = store.get("t").orElseThrow();
      assertThat(n.version()).isEqualTo(FRAGMENTS);
      clock.advance(WINDOW.multipliedBy(10));
      try (FlightTestClient client = server.client()) {
        ingest(client, "t", 500, 3, replace());
      }
      clock.advance(Duration.ofMinutes(1));

      List<Long> streamed = new ArrayList<>();
      try (TableSnapshot snapshot = engine.open(n.location(), n.version(), allocator);
          ArrowReader reader = snapshot.scan(List.of("v"), Optional.empty(), Optional.empty(), 4)) {
        assertThat(reader.loadNextBatch()).isTrue();
        collect(reader, streamed);
        assertThat(server.server().maintenance().retain("t").versionsRemoved()).isEqualTo(FRAGMENTS - 1);
        while (reader.loadNextBatch()) {
          collect(reader, streamed);
        }
      }
      assertThat(streamed).as("the query streaming version N during cleanup completes")
          .containsExactlyInAnyOrderElementsOf(range(0, FRAGMENTS * 100L));
      assertThat(valuesAt(n.location(), n.version())).containsExactlyInAnyOrderElementsOf(range(0, FRAGMENTS * 100L));
      assertThatThrownBy(() -> valuesAt(n.location(), 1)).isInstanceOf(DatasetNotFoundException.class);
      try (FlightTestClient client = server.client()) {
        assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(range(500, 503));
      }
    }
  }

  private LakeTestServer start() throws Exception {
    return LakeTestServer.start(dataDir, b -> b.clock(clock),
        Map.of("maintenance.interval", "1h", "retention.window", "1h"));
  }

  private static TableDefinitionOptions replace() {
    return FlightTestClient.mode(
        TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL,
        TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_REPLACE);
  }

  /**
   * The values storage holds at {@code version}, read through an engine that never opened it: an engine keeps the
   * versions it read open (SharedDatasets), so the test's own engine, which streamed version N above, would still read
   * it from its open dataset after another node's cleanup removed it from storage.
   */
  private List<Long> valuesAt(String location, long version) throws Exception {
    List<Long> out = new ArrayList<>();
    try (LanceTableEngine fresh = new LanceTableEngine(allocator, Map.of());
        TableSnapshot snapshot = fresh.open(location, version, allocator);
        ArrowReader reader = snapshot.scan(List.of("v"), Optional.empty(), Optional.empty(), 1024)) {
      while (reader.loadNextBatch()) {
        collect(reader, out);
      }
    }
    return out;
  }

  private static void collect(ArrowReader reader, List<Long> out) throws Exception {
    BigIntVector v = (BigIntVector) reader.getVectorSchemaRoot().getVector(0);
    for (int i = 0; i < v.getValueCount(); i++) {
      out.add(v.get(i));
    }
  }
}
