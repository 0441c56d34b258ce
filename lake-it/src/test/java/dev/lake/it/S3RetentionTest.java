package dev.lake.it;

import static dev.lake.it.support.LongTable.ingest;
import static dev.lake.it.support.LongTable.range;
import static dev.lake.it.support.LongTable.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.engine.DatasetNotFoundException;
import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.S3ObjectStore;
import dev.lake.engine.S3StorageOptions;
import dev.lake.engine.TableSnapshot;
import dev.lake.it.support.ClusterSettings;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.MutableClock;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.metasrv.MaintenanceReport;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import dev.lake.registry.dynamodb.Dynoxide;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.LongStream;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * docs/design.md invariant 9 on S3 (s3proxy, registry in dynoxide): retention keeps every version that was current at
 * any moment within the window, as the registry's history says, not Lance's creation times. Version N of an idle
 * table, created ten windows ago and superseded a minute ago, stays readable after cleanup, and a query streaming
 * it through the server while cleanup runs completes; versions that left the window are gone.
 */
class S3RetentionTest {
  private static final Duration WINDOW = Duration.ofHours(1);
  /** More fragments than a Lance scan opens ahead, each larger than what Flight buffers, so the stream is live. */
  private static final int FRAGMENTS = 24;
  private static final int ROWS = 20_000;

  @TempDir
  Path dataDir;

  private final MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
  private S3ProxyServer s3;
  private Dynoxide dynamoDb;
  private BufferAllocator allocator;
  private LanceTableEngine reader;

  @BeforeEach
  void start() throws Exception {
    s3 = S3ProxyServer.start("lake-retention");
    dynamoDb = Dynoxide.start();
    allocator = new RootAllocator();
    // A second engine on the same bucket, to open exact versions the way a query does.
    reader = new LanceTableEngine(allocator, new S3StorageOptions(StaticCredentialsProvider.create(
        AwsBasicCredentials.create(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)), S3ProxyServer.REGION,
        Optional.of(s3.endpoint()), true), List.of(new S3ObjectStore(s3.client())));
  }

  @AfterEach
  void stop() throws Exception {
    long handles = reader.openHandles();
    reader.close();
    allocator.close();
    dynamoDb.close();
    s3.close();
    assertThat(handles).as("Lance handles left open by the test").isZero();
  }

  @Test
  void cleanupNeverRemovesVersionsInsideRetentionWindow() throws Exception {
    Map<String, String> settings = new HashMap<>(ClusterSettings.of(s3, "lake", dynamoDb,
        "lake-retention-" + UUID.randomUUID()));
    settings.put("retention.window", "1h");
    settings.put("query.batch-rows", "1024");
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> b.clock(clock), settings);
        FlightTestClient client = server.client()) {
      MetaStore store = server.server().metaStore();
      // Long ago: versions 1..24 registered a second apart, one fragment each; then the table stays idle.
      ingest(client, "t", 0, ROWS, FlightTestClient.create());
      for (int f = 1; f < FRAGMENTS; f++) {
        clock.advance(Duration.ofSeconds(1));
        ingest(client, "t", (long) f * ROWS, ROWS, FlightTestClient.append());
      }
      TableRegistration n = store.get("t").orElseThrow();
      assertThat(n.version()).isEqualTo(FRAGMENTS);
      assertThat(n.location()).startsWith("s3://lake-retention/lake/t/");
      clock.advance(WINDOW.multipliedBy(10));

      // Two queries pin version N (the registered one) when they are executed: the first starts streaming it, the
      // second will fetch its results only after the cleanup.
      FlightInfo streaming = client.sql().execute("SELECT v FROM t", client.auth());
      FlightInfo waiting = client.sql().execute("SELECT v FROM t", client.auth());
      MaintenanceReport report;
      long[] first = new long[FRAGMENTS * ROWS];
      int seen;
      try (FlightStream stream = client.sql().getStream(streaming.getEndpoints().get(0).getTicket(), client.auth())) {
        assertThat(stream.next()).isTrue();
        seen = collect(stream, first, 0);

        // Now a replace supersedes N (N's data files are then referenced by N alone), and cleanup runs.
        ingest(client, "t", 9_000_000, 3, LongTable.replace());
        clock.advance(Duration.ofMinutes(1));
        report = server.server().maintenance().retain("t");

        while (stream.next()) {
          seen = collect(stream, first, seen);
        }
      }
      assertThat(seen).as("the query streaming version N during cleanup completes").isEqualTo(FRAGMENTS * ROWS);
      assertThat(sorted(first)).isEqualTo(LongStream.range(0, (long) FRAGMENTS * ROWS).toArray());
      long[] second = new long[FRAGMENTS * ROWS];
      seen = 0;
      try (FlightStream stream = client.sql().getStream(waiting.getEndpoints().get(0).getTicket(), client.auth())) {
        while (stream.next()) {
          seen = collect(stream, second, seen);
        }
      }
      assertThat(seen).as("the query pinned to N before the cleanup reads N after it").isEqualTo(FRAGMENTS * ROWS);
      assertThat(sorted(second)).isEqualTo(LongStream.range(0, (long) FRAGMENTS * ROWS).toArray());

      assertThat(report.versionsRemoved()).as("versions 1..N-1 left the window").isEqualTo(FRAGMENTS - 1);
      assertThat(countAt(n.location(), n.version())).as("version N, superseded a minute ago, is readable")
          .isEqualTo((long) FRAGMENTS * ROWS);
      for (long gone = 1; gone < n.version(); gone++) {
        long version = gone;
        assertThatThrownBy(() -> countAt(n.location(), version)).as("version %d left the window", version)
            .isInstanceOf(DatasetNotFoundException.class);
      }
      assertThat(store.history("t", n.generation()).stream().map(VersionRecord::version).toList())
          .containsExactly(n.version(), n.version() + 1);

      // Once N has been superseded for longer than the window it goes too; the registered version stays.
      clock.advance(WINDOW);
      assertThat(server.server().maintenance().retain("t").versionsRemoved()).isEqualTo(1);
      assertThatThrownBy(() -> countAt(n.location(), n.version())).isInstanceOf(DatasetNotFoundException.class);
      assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(range(9_000_000, 9_000_003));
      assertThat(s3.keys("lake/t/")).filteredOn(k -> k.contains("/_versions/")).hasSize(1);
    }
  }

  private long countAt(String location, long version) throws Exception {
    long rows = 0;
    try (TableSnapshot snapshot = reader.open(location, version, allocator);
        ArrowReader r = snapshot.scan(List.of("v"), Optional.empty(), Optional.empty(), 65_536)) {
      while (r.loadNextBatch()) {
        rows += r.getVectorSchemaRoot().getRowCount();
      }
    }
    return rows;
  }

  private static long[] sorted(long[] values) {
    long[] copy = values.clone();
    Arrays.sort(copy);
    return copy;
  }

  private static int collect(FlightStream stream, long[] out, int at) {
    BigIntVector v = (BigIntVector) stream.getRoot().getVector(0);
    int n = stream.getRoot().getRowCount();
    for (int i = 0; i < n; i++) {
      out[at + i] = v.get(i);
    }
    return at + n;
  }
}
