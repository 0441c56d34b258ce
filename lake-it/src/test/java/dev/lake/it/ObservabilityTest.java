package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.lake.flight.metrics.SlowQueryLog;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Poll;
import dev.lake.registry.ForwardingMetaStore;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.RegistryUnavailableException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Issue 11 (observability): the Prometheus endpoint, health and readiness, the slow-query log with the query id. */
class ObservabilityTest {
  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)$");
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path dataDir;

  @Test
  void metricsEndpointReportsQueriesAndIngest() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> {}, metricsOn());
        FlightTestClient client = server.client()) {
      int port = server.server().metricsPort().orElseThrow();
      String before = get(port, "/metrics").body();

      assertThat(LongTable.ingest(client, "t", 0, 100, FlightTestClient.create())).isEqualTo(100);
      assertThat(LongTable.values(client, "t")).hasSize(100);

      // The server counts a query once its DoGet has ended, which may be just after the client read the last batch.
      Poll.until(Duration.ofSeconds(10), "the query to be counted", () -> delta(before, scrape(port),
          "lake_query_duration_seconds_count", "outcome=\"ok\"") == 1);
      String after = get(port, "/metrics").body();
      assertThat(delta(before, after, "lake_query_duration_seconds_count", "outcome=\"ok\"")).isEqualTo(1);
      assertThat(delta(before, after, "lake_query_rows_total", "")).isEqualTo(100);
      assertThat(delta(before, after, "lake_query_bytes_total", "")).isGreaterThanOrEqualTo(800);
      assertThat(delta(before, after, "lake_ingest_duration_seconds_count", "outcome=\"ok\"")).isEqualTo(1);
      assertThat(delta(before, after, "lake_ingest_rows_total", "")).isEqualTo(100);
      assertThat(delta(before, after, "lake_ingest_bytes_total", "")).isGreaterThanOrEqualTo(800);
      // The latency histogram has buckets; gauges read the node at scrape time.
      assertThat(after).contains("lake_query_duration_seconds_bucket{");
      assertThat(value(after, "lake_queries_active", "")).isZero();
      assertThat(value(after, "lake_queries_queued", "")).isZero();
      assertThat(after).containsPattern("(?m)^lake_catalog_tables\\{");
      assertThat(delta(before, after, "lake_catalog_hits_total", "")).isGreaterThanOrEqualTo(1);
      assertThat(value(after, "lake_leader", "")).isEqualTo(1);
      assertThat(value(after, "lake_leader_term", "")).isGreaterThanOrEqualTo(1);

      // A single-table aggregate runs outside Calcite: the pushdown counters say where.
      String beforeAggregate = scrape(port);
      assertThat(client.rows("SELECT COUNT(*), SUM(v) FROM t WHERE v > 10")).hasSize(1);
      String afterAggregate = scrape(port);
      assertThat(delta(beforeAggregate, afterAggregate, "lake_pushdown_vectorized_total", "")
          + delta(beforeAggregate, afterAggregate, "lake_pushdown_lance_sql_total", ""))
          .as("single-table subtrees run by the vectorized executor or Lance's SQL engine").isEqualTo(1);
      assertThat(client.rows("SELECT COUNT(*), SUM(v) FROM t WHERE v > 20")).hasSize(1);
      String afterCached = scrape(port);
      assertThat(delta(beforeAggregate, afterCached, "lake_column_cache_misses_total", ""))
          .as("the first aggregate decoded its column into the cache").isGreaterThanOrEqualTo(1);
      assertThat(delta(afterAggregate, afterCached, "lake_column_cache_hits_total", ""))
          .as("the second read it from there").isGreaterThanOrEqualTo(1);
      assertThat(value(afterCached, "lake_column_cache_size_bytes", "")).isPositive();

      // A query that fails is counted under its status code.
      try {
        client.rows("SELECT v FROM t WHERE CAST('x' || CAST(v AS VARCHAR) AS INTEGER) > 0");
      } catch (Exception expected) {
        // its code is the outcome label
      }
      Poll.until(Duration.ofSeconds(10), "the failed query to be counted", () -> scrape(port)
          .contains("outcome=\"invalid_argument\""));
      assertThat(scrape(port)).containsPattern("lake_query_duration_seconds_count\\{[^}]*outcome=\"invalid_argument\"");
    }
  }

  @Test
  void healthAndReadinessReflectTheRegistry() throws Exception {
    AtomicBoolean registryDown = new AtomicBoolean();
    try (LakeTestServer server = LakeTestServer.start(dataDir,
        b -> b.wrapMetaStore(store -> new ForwardingMetaStore(store) {
          @Override
          public Optional<LeaderLease> lease() {
            if (registryDown.get()) {
              throw new RegistryUnavailableException("injected: the registry is unreachable", null);
            }
            return super.lease();
          }
        }), metricsOn())) {
      int port = server.server().metricsPort().orElseThrow();
      HttpResponse<String> health = get(port, "/health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("UP");
      HttpResponse<String> ready = get(port, "/ready");
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.body()).contains("\"READY\"").contains("\"registry\":\"ok\"").contains("this node");

      registryDown.set(true);
      HttpResponse<String> notReady = get(port, "/ready");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body()).contains("NOT_READY").contains("unreachable");
      assertThat(get(port, "/health").statusCode()).isEqualTo(200);
      assertThat(get(port, "/nope").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void slowQueryLogNamesQueryIdUserAndSql() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(SlowQueryLog.class);
    ListAppender<ILoggingEvent> events = new ListAppender<>();
    events.start();
    logger.addAppender(events);
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> {},
        Map.of("log.slow-query-threshold", "0ms"));
        FlightTestClient client = server.client()) {
      LongTable.ingest(client, "slow", 0, 10, FlightTestClient.create());
      client.rows("SELECT   v\n FROM slow WHERE v >= 3");
    } finally {
      logger.detachAppender(events);
    }
    assertThat(events.list).hasSize(1);
    ILoggingEvent line = events.list.get(0);
    String queryId = line.getMDCPropertyMap().get("queryId");
    assertThat(queryId).isNotBlank();
    assertThat(line.getFormattedMessage()).startsWith("slow query queryId=" + queryId + " user=lake durationMs=")
        .contains("rows=7 outcome=ok sql=SELECT v FROM slow WHERE v >= 3");
  }

  private String scrape(int port) {
    try {
      return get(port, "/metrics").body();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Issue 18, item 4: a restarted node reports ready only once a query of a registered table is answered — its
   * start-up warm-up (catalog snapshot, Lance's native library, the dataset open, planning) has run. While the
   * warm-up's dataset open is held back, {@code /ready} answers 503 naming the phase and {@code lake.status} says
   * {@code "ready": false}; once it is let go, {@code /ready} turns 200 and a query is answered.
   */
  @Test
  void readyMeansQueriesAreAnswered() throws Exception {
    try (LakeTestServer first = LakeTestServer.start(dataDir);
        FlightTestClient client = first.client()) {
      assertThat(LongTable.ingest(client, "t", 0, 10, FlightTestClient.create())).isEqualTo(10);
    }
    int metricsPort = dev.lake.it.support.ClusterNodes.freePort();
    int flightPort = dev.lake.it.support.ClusterNodes.freePort();
    java.util.concurrent.CountDownLatch opening = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch letOpen = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CompletableFuture<LakeTestServer> starting =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> {
          try {
            return LakeTestServer.start(dataDir, b -> b.wrapEngine(e ->
                new dev.lake.it.support.ForwardingTableEngine(e) {
              @Override
              public dev.lake.engine.TableSnapshot open(String location, long version,
                  org.apache.arrow.memory.BufferAllocator allocator) {
                opening.countDown();
                try {
                  if (!letOpen.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never let the dataset open");
                  }
                } catch (InterruptedException ie) {
                  Thread.currentThread().interrupt();
                }
                return super.open(location, version, allocator);
              }
            }), Map.of("metrics.enabled", "true", "metrics.port", Integer.toString(metricsPort),
                "server.port", Integer.toString(flightPort)));
          } catch (Exception ex) {
            throw new IllegalStateException(ex);
          }
        });
    LakeTestServer restarted = null;
    try {
      assertThat(opening.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the warm-up opens the table").isTrue();
      Poll.until(Duration.ofSeconds(30), "the metrics endpoint answers", () -> {
        try {
          get(metricsPort, "/health");
          return true;
        } catch (Exception notYet) {
          return false;
        }
      });
      HttpResponse<String> warming = get(metricsPort, "/ready");
      assertThat(warming.statusCode()).as("not ready while no query of a registered table can be answered")
          .isEqualTo(503);
      assertThat(warming.body()).contains("NOT_READY").contains("first query of table 't'");
      try (FlightTestClient early = FlightTestClient.connect(flightPort, "lake", "lake")) {
        com.fasterxml.jackson.databind.JsonNode status =
            dev.lake.it.support.AdminClient.action(early, "lake.status", "{}");
        assertThat(status.get("ready").asBoolean()).as("lake.status while warming up").isFalse();
        assertThat(status.get("warmup").asText()).contains("first query");
      }

      letOpen.countDown();
      restarted = starting.get(60, java.util.concurrent.TimeUnit.SECONDS);
      HttpResponse<String> ready = get(metricsPort, "/ready");
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.body()).contains("\"READY\"").contains("\"warmup\":\"done\"");
      try (FlightTestClient client = restarted.client()) {
        assertThat(dev.lake.it.support.AdminClient.action(client, "lake.status", "{}").get("ready").asBoolean())
            .isTrue();
        assertThat(LongTable.values(client, "t")).hasSize(10);
      }
    } finally {
      letOpen.countDown();
      if (restarted == null) {
        restarted = starting.get(60, java.util.concurrent.TimeUnit.SECONDS);
      }
      restarted.close();
    }
  }

  private static Map<String, String> metricsOn() {
    return Map.of("metrics.enabled", "true", "metrics.port", "0");
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static double delta(String before, String after, String name, String labels) {
    return value(after, name, labels) - value(before, name, labels);
  }

  /** The sum of the samples of {@code name} whose labels contain {@code labels} (0 when there are none). */
  private static double value(String scrape, String name, String labels) {
    double sum = 0;
    for (String line : scrape.split("\n")) {
      Matcher m = SAMPLE.matcher(line.strip());
      if (m.matches() && m.group(1).equals(name) && (m.group(2) == null ? "" : m.group(2)).contains(labels)) {
        sum += Double.parseDouble(m.group(3));
      }
    }
    return sum;
  }
}
