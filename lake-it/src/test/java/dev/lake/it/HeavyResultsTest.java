package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.Any;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.MutableClock;
import dev.lake.it.support.Poll;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.it.support.Status;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import dev.lake.it.support.GatedScans;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelFlightInfoResult;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 / API tier 2: PollFlightInfo runs a query in the background and spools its result to S3 as Arrow IPC;
 * the final FlightInfo's endpoints carry presigned URLs followed by a gRPC fallback; the poll state lives beside
 * the result in S3 (another node answers the poll); spooled results expire and are deleted.
 */
class HeavyResultsTest {
  private static final int ROWS = 300_000;
  private static final long SUM = (long) ROWS * (ROWS - 1) / 2;
  private static final String SECRET = "a-cluster-secret-shared-by-both-nodes-of-this-test";

  @TempDir
  Path dir;

  @Test
  void pollFlightInfoSpoolsHeavyResultToS3() throws Exception {
    MutableClock clock = new MutableClock(Instant.now());
    try (S3ProxyServer s3 = S3ProxyServer.start("lake-results");
        BufferAllocator allocator = new RootAllocator()) {
      Map<String, String> settings = new HashMap<>(s3.nodeSettings("lake"));
      settings.put("cluster.secret", SECRET);
      settings.put("results.part-size", "1MB");
      settings.put("results.lifetime", "10m");
      settings.put("results.sweep-interval", "200ms");
      settings.put("query.batch-rows", "10000");
      try (LakeTestServer node1 = LakeTestServer.start(dir.resolve("node1"), b -> b.clock(clock), settings);
          LakeTestServer node2 = LakeTestServer.start(dir.resolve("node2"), b -> {}, settings);
          FlightTestClient client = node1.client();
          FlightTestClient other = node2.client()) {
        LongTable.ingest(client, "big", 0, ROWS, FlightTestClient.create());

        FlightDescriptor query = FlightDescriptor.command(Any.pack(FlightSql.CommandStatementQuery.newBuilder()
            .setQuery("SELECT v FROM big").build()).toByteArray());
        PollInfo first = client.flight().pollInfo(query, client.auth());
        assertThat(first.getFlightDescriptor()).as("a running job hands out a descriptor to poll").isPresent();
        FlightDescriptor job = first.getFlightDescriptor().get();
        assertThat(first.getFlightInfo().getSchemaOptional().orElseThrow().getFields()).extracting(f -> f.getName())
            .containsExactly("v");

        PollInfo done = pollUntilDone(client, job);
        FlightInfo info = done.getFlightInfo();
        assertThat(info.getRecords()).isEqualTo(ROWS);
        List<FlightEndpoint> endpoints = info.getEndpoints();
        assertThat(endpoints).as("a 2.4 MB result in 1 MB parts").hasSizeGreaterThanOrEqualTo(2);
        List<String> objects = s3.keys("lake/.lake-results/");
        assertThat(objects).as("the parts and the poll state live in S3 under the results prefix")
            .anyMatch(k -> k.endsWith("/state.json")).anyMatch(k -> k.endsWith(".arrows"));

        // every endpoint: a presigned URL first, then the gRPC fallback
        HttpClient http = HttpClient.newHttpClient();
        long httpRows = 0;
        long httpSum = 0;
        long grpcRows = 0;
        long grpcSum = 0;
        for (FlightEndpoint endpoint : endpoints) {
          List<Location> locations = endpoint.getLocations();
          assertThat(locations).hasSize(2);
          URI presigned = locations.get(0).getUri();
          assertThat(presigned.getScheme()).isIn("http", "https");
          assertThat(presigned.getQuery()).contains("X-Amz-Signature");
          assertThat(locations.get(1)).isEqualTo(Location.reuseConnection());
          assertThat(endpoint.getExpirationTime()).isPresent();

          HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(presigned).GET().build(),
              HttpResponse.BodyHandlers.ofByteArray());
          assertThat(response.statusCode()).isEqualTo(200);
          try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(response.body()),
              allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            while (reader.loadNextBatch()) {
              httpRows += root.getRowCount();
              httpSum += sum(root);
            }
          }
          // the fallback location is this connection: DoGet of the endpoint's ticket
          try (FlightStream stream = client.flight().getStream(endpoint.getTicket(), client.auth())) {
            while (stream.next()) {
              grpcRows += stream.getRoot().getRowCount();
              grpcSum += sum(stream.getRoot());
            }
          }
        }
        assertThat(httpRows).isEqualTo(ROWS);
        assertThat(httpSum).isEqualTo(SUM);
        assertThat(grpcRows).isEqualTo(ROWS);
        assertThat(grpcSum).isEqualTo(SUM);

        // the poll state is not in node 1's memory: node 2 answers the same descriptor and serves the parts
        PollInfo fromNode2 = other.flight().pollInfo(job, other.auth());
        assertThat(fromNode2.getFlightDescriptor()).isEmpty();
        assertThat(fromNode2.getFlightInfo().getEndpoints()).hasSameSizeAs(endpoints);
        long node2Rows = 0;
        for (FlightEndpoint endpoint : fromNode2.getFlightInfo().getEndpoints()) {
          try (FlightStream stream = other.flight().getStream(endpoint.getTicket(), other.auth())) {
            while (stream.next()) {
              node2Rows += stream.getRoot().getRowCount();
            }
          }
        }
        assertThat(node2Rows).isEqualTo(ROWS);

        // spooled results expire and are deleted
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));
        Poll.until(Duration.ofSeconds(60), "the expired result was deleted from S3",
            () -> s3.keys("lake/.lake-results/").isEmpty());
        Throwable gone = catchThrowable(() -> client.flight().pollInfo(job, client.auth()));
        assertThat(Status.code(gone)).isEqualTo("NOT_FOUND");
        assertThat(gone).hasMessageContaining("run the query again");
        HttpResponse<byte[]> afterExpiry = http.send(HttpRequest.newBuilder(endpoints.get(0).getLocations().get(0)
            .getUri()).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(afterExpiry.statusCode()).isEqualTo(404);
      }
    }
  }

  @Test
  void cancelFlightInfoStopsAPollJob() throws Exception {
    AtomicReference<GatedScans> gated = new AtomicReference<>();
    try (LakeTestServer server = LakeTestServer.start(dir.resolve("data"),
            b -> b.wrapEngine(e -> { gated.set(new GatedScans(e, "/slow/")); return gated.get(); }),
            Map.of("query.batch-rows", "1000"));
        FlightTestClient client = server.client()) {
      LongTable.ingest(client, "slow", 0, 50_000, FlightTestClient.create());
      PollInfo running = client.flight().pollInfo(FlightDescriptor.command(Any.pack(FlightSql.CommandStatementQuery
          .newBuilder().setQuery("SELECT v FROM slow").build()).toByteArray()), client.auth());
      assertThat(gated.get().awaitProducerWaiting(60)).as("the job runs and holds its first batch").isTrue();
      assertThat(server.server().resultSpool().runningJobs()).isEqualTo(1);

      CancelFlightInfoResult cancelled = client.flight().cancelFlightInfo(
          new CancelFlightInfoRequest(running.getFlightInfo()), client.auth());
      assertThat(cancelled.getStatus()).isEqualTo(CancelStatus.CANCELLED);
      Poll.until(Duration.ofSeconds(60), "the job stopped and released its slot and memory", () ->
          server.server().resultSpool().runningJobs() == 0 && server.server().queryMemory() == 0
              && server.server().openHandles() == 0
              && server.server().queryLimits().admission().running() == 0);
      Throwable polled = catchThrowable(() -> client.flight().pollInfo(running.getFlightDescriptor().get(),
          client.auth()));
      assertThat(Status.code(polled)).isEqualTo("CANCELLED");
      gated.get().open();
      assertThat(gated.get().producerFinished()).as("the job was stopped, not drained").isFalse();
      // a garbage poll descriptor is refused
      Throwable garbage = catchThrowable(() -> client.flight().pollInfo(FlightDescriptor.command(
          "lake-poll:garbage".getBytes(java.nio.charset.StandardCharsets.US_ASCII)), client.auth()));
      assertThat(Status.code(garbage)).isEqualTo("INVALID_ARGUMENT");
    }
  }

  private static PollInfo pollUntilDone(FlightTestClient client, FlightDescriptor job) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    PollInfo info = client.flight().pollInfo(job, client.auth());
    while (info.getFlightDescriptor().isPresent()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("the poll job did not finish within 120 s");
      }
      Thread.sleep(50);
      info = client.flight().pollInfo(info.getFlightDescriptor().get(), client.auth());
    }
    return info;
  }

  private static long sum(VectorSchemaRoot root) {
    BigIntVector v = (BigIntVector) root.getVector(0);
    long sum = 0;
    for (int i = 0; i < root.getRowCount(); i++) {
      sum += v.get(i);
    }
    return sum;
  }
}
