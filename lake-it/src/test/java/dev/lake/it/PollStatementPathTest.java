package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.protobuf.Any;
import dev.lake.flight.metrics.SlowQueryLog;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.GatedScans;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Poll;
import dev.lake.it.support.Status;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A PollFlightInfo statement takes DoGet's statement path: it is prepared under its query id (a statement that
 * fails there is counted as a query), it counts in the same {@code /metrics} query meters when its job ends, a slow
 * one is in the slow-query log with its query id, user and SQL, and it obeys the same per-user limit
 * ({@code query.max-concurrent-per-user}) in both directions: a running job holds its user's count against DoGets,
 * and a running DoGet against jobs.
 */
class PollStatementPathTest {
  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)$");
  private static final String QUERIES = "lake_query_duration_seconds_count";
  private static final String OK = "outcome=\"ok\"";

  @TempDir
  Path dataDir;

  private final HttpClient http = HttpClient.newHttpClient();
  private int metricsPort;

  @Test
  void pollFlightInfoQueriesAreMetered() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(SlowQueryLog.class);
    ListAppender<ILoggingEvent> slow = new ListAppender<>();
    slow.start();
    logger.addAppender(slow);
    AtomicReference<GatedScans> heldJob = new AtomicReference<>();
    AtomicReference<GatedScans> heldGet = new AtomicReference<>();
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> b.wrapEngine(e -> {
          heldJob.set(new GatedScans(e, "/held_by_job/"));
          heldGet.set(new GatedScans(heldJob.get(), "/held_by_get/"));
          return heldGet.get();
        }), Map.of("metrics.enabled", "true", "metrics.port", "0", "log.slow-query-threshold", "0ms",
            "query.max-concurrent-per-user", "1", "query.batch-rows", "1000"));
        FlightTestClient client = server.client()) {
      int port = server.server().metricsPort().orElseThrow();
      metricsPort = port;
      LongTable.ingest(client, "t", 0, 10, FlightTestClient.create());
      LongTable.ingest(client, "held_by_job", 0, 5_000, FlightTestClient.create());
      LongTable.ingest(client, "held_by_get", 0, 5_000, FlightTestClient.create());

      // A DoGet query: what every query counts in.
      String before = scrape(port);
      assertThat(client.rows("SELECT v FROM t WHERE v >= 3")).hasSize(7);
      Poll.until(Duration.ofSeconds(30), "the DoGet query is counted", () -> delta(before, QUERIES, OK) == 1);

      // A PollFlightInfo query counts in the same meters, once its job ended.
      slow.list.clear();
      String beforePoll = scrape(port);
      PollInfo done = pollUntilDone(client, "SELECT v FROM t WHERE v < 4");
      assertThat(done.getFlightInfo().getRecords()).isEqualTo(4);
      Poll.until(Duration.ofSeconds(30), "the poll job is counted as a query",
          () -> delta(beforePoll, QUERIES, OK) == 1);
      assertThat(scrape(port)).containsPattern(QUERIES.replace("_count", "_bucket") + "\\{[^}]*" + OK);
      // ...and is in the slow-query log (threshold 0) under its query id, with its user, rows and SQL.
      Poll.until(Duration.ofSeconds(30), "the poll job's slow-query line", () -> slowLines(slow).size() == 1);
      ILoggingEvent line = slowLines(slow).get(0);
      String queryId = line.getMDCPropertyMap().get("queryId");
      assertThat(queryId).isNotBlank();
      assertThat(line.getFormattedMessage()).startsWith("slow query queryId=" + queryId + " user=lake durationMs=")
          .contains("rows=4 outcome=ok sql=SELECT v FROM t WHERE v < 4");

      // A statement that fails to prepare is counted with its status, as a DoGet's GetFlightInfo is.
      String beforeFailure = scrape(port);
      assertThat(Status.code(catchThrowable(() -> client.flight().pollInfo(statement("SELECT v FROM nope"),
          client.auth())))).isEqualTo("NOT_FOUND");
      Poll.until(Duration.ofSeconds(30), "the failed poll statement is counted",
          () -> delta(beforeFailure, QUERIES, "outcome=\"not_found\"") == 1);

      // The per-user limit (1): a running job holds the user's count; a DoGet and a second job are refused.
      PollInfo running = client.flight().pollInfo(statement("SELECT v FROM held_by_job"), client.auth());
      assertThat(running.getFlightDescriptor()).isPresent();
      assertThat(heldJob.get().awaitProducerWaiting(60)).as("the job runs and holds its first batch").isTrue();
      Throwable doGet = catchThrowable(() -> client.rows("SELECT count(*) FROM t"));
      assertThat(Status.code(doGet)).isEqualTo("RESOURCE_EXHAUSTED");
      assertThat(doGet).hasMessageContaining("query.max-concurrent-per-user");
      Throwable secondJob = catchThrowable(() -> client.flight().pollInfo(statement("SELECT v FROM t"),
          client.auth()));
      assertThat(Status.code(secondJob)).isEqualTo("RESOURCE_EXHAUSTED");
      assertThat(secondJob).hasMessageContaining("query.max-concurrent-per-user");
      heldJob.get().open();
      assertThat(pollUntilDone(client, running.getFlightDescriptor().get()).getFlightInfo().getRecords())
          .isEqualTo(5_000);
      Poll.until(Duration.ofSeconds(30), "the job gave its user's count back",
          () -> server.server().queryLimits().users().active("lake") == 0);

      // ...and a running DoGet holds it against a job.
      FlightInfo info = client.sql().execute("SELECT v FROM held_by_get", client.auth());
      try (FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
        assertThat(heldGet.get().awaitProducerWaiting(60)).as("the DoGet holds its first batch").isTrue();
        Throwable job = catchThrowable(() -> client.flight().pollInfo(statement("SELECT v FROM t"), client.auth()));
        assertThat(Status.code(job)).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(job).hasMessageContaining("query.max-concurrent-per-user");
        heldGet.get().open();
        long rows = 0;
        while (stream.next()) {
          rows += stream.getRoot().getRowCount();
        }
        assertThat(rows).isEqualTo(5_000);
      }
    } finally {
      logger.detachAppender(slow);
    }
  }

  private static List<ILoggingEvent> slowLines(ListAppender<ILoggingEvent> appender) {
    synchronized (appender.list) {
      return appender.list.stream().filter(e -> e.getFormattedMessage().startsWith("slow query ")).toList();
    }
  }

  private static FlightDescriptor statement(String sql) {
    return FlightDescriptor.command(Any.pack(FlightSql.CommandStatementQuery.newBuilder().setQuery(sql).build())
        .toByteArray());
  }

  private static PollInfo pollUntilDone(FlightTestClient client, String sql) throws Exception {
    return pollUntilDone(client, statement(sql));
  }

  private static PollInfo pollUntilDone(FlightTestClient client, FlightDescriptor descriptor) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    PollInfo info = client.flight().pollInfo(descriptor, client.auth());
    while (info.getFlightDescriptor().isPresent()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("the poll job did not finish within 120 s");
      }
      Thread.sleep(50);
      info = client.flight().pollInfo(info.getFlightDescriptor().get(), client.auth());
    }
    return info;
  }

  /** How much {@code name}'s samples with {@code labels} grew since {@code before}, on a fresh scrape. */
  private double delta(String before, String name, String labels) {
    try {
      return value(scrape(metricsPort), name, labels) - value(before, name, labels);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private String scrape(int port) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
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
