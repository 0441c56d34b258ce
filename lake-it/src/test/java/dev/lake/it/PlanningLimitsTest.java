package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, item 6: planning requests (GetFlightInfo, CreatePreparedStatement, GetSchema), which plan without
 * executing, are bounded like executions — by the statement limits and by {@code query.planning-timeout} — and a
 * planning request past its deadline is answered DEADLINE_EXCEEDED promptly and its work stops.
 */
class PlanningLimitsTest {
  private static final long TIMEOUT_MS = 3_000;

  @TempDir
  Path dir;

  @Test
  void planningRequestsAreBoundedInTimeAndSize() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dir, b -> { },
            Map.of("query.planning-timeout", TIMEOUT_MS + "ms", "query.max-statement-length", "2000000"));
        FlightTestClient client = server.client()) {
      LongTable.ingest(client, "big", 0, 1_000, FlightTestClient.create());
      // warm up (class loading), then the three request kinds on a fine statement
      for (int attempt = 0; attempt < 5 && catchThrowable(() -> client.rows("SELECT count(*) FROM big")) != null;
          attempt++) {
        Thread.sleep(200);
      }
      List<String> report = new ArrayList<>();
      // size: a statement over query.max-statement-length, an IN list over query.max-in-list
      String tooLong = "SELECT " + "1 + ".repeat(550_000) + "1";
      StringJoiner in = new StringJoiner(", ", "SELECT count(*) FROM big WHERE v IN (", ")");
      for (int i = 0; i < 10_001; i++) {
        in.add(Integer.toString(i));
      }
      for (String sql : List.of(tooLong, in.toString())) {
        for (Request request : Request.values()) {
          long started = System.nanoTime();
          Throwable refused = catchThrowable(() -> request.send(client, sql));
          long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
          assertThat(Status.code(refused)).as("%s of a %d-character statement", request, sql.length())
              .isEqualTo("INVALID_ARGUMENT");
          assertThat(refused.getMessage()).contains(sql == tooLong ? "query.max-statement-length"
              : "query.max-in-list");
          report.add(request + " over a limit: " + ms + " ms");
        }
      }
      // time: a statement within the limits whose validation takes longer than query.planning-timeout (120,000 items)
      StringJoiner items = new StringJoiner(", ", "SELECT ", " FROM big a JOIN big b ON a.v = b.v");
      for (int i = 0; i < 120_000; i++) {
        items.add("a.v + " + i);
      }
      String slow = items.toString();
      assertThat(slow.length()).isLessThan(2_000_000);
      for (Request request : Request.values()) {
        long started = System.nanoTime();
        Throwable stopped = catchThrowable(() -> request.send(client, slow));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(Status.code(stopped))
            .as("%s of a statement that plans longer than query.planning-timeout (after %d ms)", request, ms)
            .isEqualTo("DEADLINE_EXCEEDED");
        assertThat(stopped.getMessage()).contains("query.planning-timeout");
        long answered = System.nanoTime();
        long stoppedMs = -1;
        while (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - answered) < 2_000) {
          if (validating().isEmpty()) {
            stoppedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - answered);
            break;
          }
          Thread.sleep(20);
        }
        assertThat(stoppedMs).as("%s: its planning stopped within 2 s of the answer (threads %s)", request,
            validating()).isGreaterThanOrEqualTo(0);
        report.add(request + " past query.planning-timeout: answered after " + ms + " ms, work stopped " + stoppedMs
            + " ms later");
      }
      System.out.println("planningRequestsAreBoundedInTimeAndSize: " + String.join("; ", report));
      assertThat(client.rows("SELECT count(*) FROM big").get(0).get(0)).isEqualTo(1_000L);
    }
  }

  /** Live threads inside Calcite's validation or conversion. */
  private static List<String> validating() {
    List<String> busy = new ArrayList<>();
    for (String frame : QueryDeadlineTest.busyQueryThreads()) {
      if (frame.contains("org.apache.calcite.") || frame.contains("dev.lake.query.")) {
        busy.add(frame);
      }
    }
    return busy;
  }

  private enum Request {
    GET_FLIGHT_INFO(c -> c::getFlightInfo),
    CREATE_PREPARED_STATEMENT(c -> c::prepare),
    GET_SCHEMA(c -> c::getSchema);

    private final java.util.function.Function<Calls, Consumer<String>> call;

    Request(java.util.function.Function<Calls, Consumer<String>> call) {
      this.call = call;
    }

    void send(FlightTestClient client, String sql) {
      call.apply(new Calls(client)).accept(sql);
    }
  }

  private record Calls(FlightTestClient client) {
    void getFlightInfo(String sql) {
      client.sql().execute(sql, client.auth());
    }

    void prepare(String sql) {
      client.sql().prepare(sql, client.auth()).close(client.auth());
    }

    void getSchema(String sql) {
      client.sql().getExecuteSchema(sql, client.auth());
    }
  }
}
