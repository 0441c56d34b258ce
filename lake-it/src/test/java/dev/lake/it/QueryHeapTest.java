package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.ServerProcess;
import dev.lake.it.support.Status;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, item 3: on a small-heap node one reader's statement cannot exhaust the heap. The heap lake's row
 * operators keep and the heap a huge statement would take to parse and plan are charged to the query's and the
 * node's memory budgets, and refused with RESOURCE_EXHAUSTED before the heap runs out; the node keeps answering.
 */
class QueryHeapTest {
  @TempDir
  Path dir;

  @Test
  void oneQueryCannotExhaustTheHeap() throws Exception {
    int metricsPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      metricsPort = socket.getLocalPort();
    }
    Map<String, String> env = Map.of("LAKE_JAVA_OPTS", "-Xmx512m", "LAKE_METRICS_ENABLED", "true",
        "LAKE_METRICS_PORT", Integer.toString(metricsPort), "LAKE_QUERY_TIMEOUT", "5m");
    try (ServerProcess server = ServerProcess.start(env, "--data-dir", dir.resolve("data").toString(), "--port",
            "0");
        FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      assertThat(health(http, metricsPort)).isEqualTo(200);

      // 1. DISTINCT over a cross join of VALUES: 27,000,000 distinct rows in Calcite's hash aggregation (gigabytes)
      StringJoiner values = new StringJoiner(", ", "(VALUES ", ")");
      for (int i = 0; i < 300; i++) {
        values.add("(" + (1_000 + i) + ")");
      }
      // (one key computed from all three sides, so the planner cannot push the DISTINCT below the join)
      String distinct = "SELECT DISTINCT CAST(a.x AS BIGINT) * 1000000 + b.y * 1000 + c.z FROM " + values
          + " AS a(x) CROSS JOIN " + values + " AS b(y) CROSS JOIN " + values + " AS c(z)";
      long t0 = System.nanoTime();
      Throwable refused = catchThrowable(() -> drain(client, distinct));
      long distinctMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertThat(Status.code(refused)).as("the DISTINCT is refused for memory: %s", String.valueOf(refused))
          .isEqualTo("RESOURCE_EXHAUSTED");
      assertThat(refused).hasMessageContaining("query.memory-limit").hasMessageContaining("query.node-memory-limit");
      assertAnswering(client, http, metricsPort, server);

      // 2. a 50 MB expression SELECT 1+1+...+1: refused before it is parsed
      StringBuilder huge = new StringBuilder(50 << 20).append("SELECT 1");
      while (huge.length() < (50 << 20)) {
        huge.append("+1");
      }
      long t1 = System.nanoTime();
      Throwable tooBig = catchThrowable(() -> drain(client, huge.toString()));
      long hugeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1);
      assertThat(Status.code(tooBig)).as("the 50 MB statement is refused: %s", String.valueOf(tooBig))
          .isIn("RESOURCE_EXHAUSTED", "INVALID_ARGUMENT");
      assertAnswering(client, http, metricsPort, server);
      System.out.println("oneQueryCannotExhaustTheHeap: distinct refused after " + distinctMs + " ms, 50 MB"
          + " statement refused after " + hugeMs + " ms, peak RSS " + (server.peakRssBytes() >> 20) + " MB");
    }
  }

  private static void assertAnswering(FlightTestClient client, HttpClient http, int metricsPort,
      ServerProcess server) throws Exception {
    assertThat(server.process().isAlive()).as("the node is still running").isTrue();
    assertThat(health(http, metricsPort)).as("the health endpoint answers").isEqualTo(200);
    assertThat(client.rows("SELECT count(*) FROM (VALUES (1), (2), (3)) AS t(x)"))
        .as("other queries run").isEqualTo(List.of(List.of(3L)));
  }

  private static int health(HttpClient http, int port) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
        .timeout(Duration.ofSeconds(30)).build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private static void drain(FlightTestClient client, String sql) throws Exception {
    FlightSqlClient.PreparedStatement prepared = client.sql().prepare(sql, client.auth());
    try {
      var info = prepared.execute(client.auth());
      try (FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
        while (stream.next()) {
          // the refusal ends the call
        }
      }
    } finally {
      prepared.close(client.auth());
    }
  }
}
