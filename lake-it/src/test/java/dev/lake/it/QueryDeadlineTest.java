package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.flight.limits.Admission;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, item 2: {@code query.timeout} stops the work itself, in every phase (planning, Calcite's Enumerable
 * runtime, the vectorized executor, Lance's scans), and the admission slot is free only once it has stopped.
 */
class QueryDeadlineTest {
  /** The server's query.timeout in this test. */
  private static final long TIMEOUT_MS = 2_000;
  /** How long after the client saw DEADLINE_EXCEEDED the work must have stopped (the bound). */
  private static final long STOPPED_WITHIN_MS = 2_000;
  /** Frames of code that runs a statement: a live thread showing one is still working for some query. */
  private static final List<String> QUERY_CODE = List.of("dev.lake.query.exec.", "dev.lake.query.vector.",
      "dev.lake.query.plan.", "dev.lake.query.CachedStatement", "dev.lake.query.QueryService", "org.apache.calcite.",
      "java.util.regex.", "org.lance.", "dev.lake.flight.StatementStreams", "dev.lake.flight.ResultStreamer");

  /** The wide table's shape (the case). */
  private static final int WIDE_COLUMNS = 10_000;
  private static final int WIDE_ROWS = 200;

  @TempDir
  Path dir;

  @Test
  void timedOutQueriesStopAndFreeTheirSlot() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dir, b -> { },
            Map.of("query.timeout", TIMEOUT_MS + "ms", "query.max-concurrent", "2", "query.batch-rows", "4096",
                "query.planning-timeout", "2m"));
        FlightTestClient client = server.client()) {
      LongTable.ingest(client, "big", 0, 200_000, FlightTestClient.create());
      ingestStrings(client, "words", "a".repeat(200), 64);
      ingestWide(client, "wide", WIDE_COLUMNS, WIDE_ROWS);
      Admission admission = server.server().queryLimits().admission();
      String aLike = "'%a%a%a%a%a%a%a%b'";
      StringJoiner in = new StringJoiner(", ", "(", ")");
      for (int i = 0; i < 10_000; i++) {
        in.add(Long.toString(1_000_000L + i * 7L));
      }
      StringJoiner values = new StringJoiner(", ", "(VALUES ", ")");
      for (int i = 0; i < 300; i++) {
        values.add("(" + i + ")");
      }
      List<String> cases = List.of(
          // LIKE whose regex translation backtracks exponentially: once folded at planning time, once per row
          "SELECT count(*) FROM (VALUES ('" + "a".repeat(200) + "')) AS t(s) WHERE s LIKE " + aLike,
          "SELECT count(*) FROM words w JOIN big b ON w.id = b.v WHERE LOWER(w.s) LIKE " + aLike,
          // cross joins: of VALUES only (Calcite's rows, no scan), a count over 4e10 pairs of table rows, and a join
          // condition that never matches
          "SELECT count(*) FROM " + values + " AS a(x), " + values + " AS b(y), " + values + " AS c(z), " + values
              + " AS d(w) WHERE a.x + b.y + c.z + d.w >= 0",
          "SELECT count(*) FROM big a CROSS JOIN big b",
          "SELECT count(*) FROM big a, big b WHERE a.v * 3 + b.v = -1",
          // a 10,000-literal IN list over a cross join: planned as a set (a semi join against its VALUES), so its
          // planning and code generation are short and the cross join's rows poll the deadline
          "SELECT count(*) FROM big a, big b WHERE a.v + b.v IN " + in,
          // every column of a 10,000-column table: read by row ranges and column groups (one short Lance call
          // each, the deadline polled between them), not by one scanner whose creation ran for minutes
          "SELECT * FROM wide");
      // warm up: the first statements of a JVM load and initialize Calcite's classes (seconds on a loaded machine);
      // the cases below measure work that does not stop, not class loading
      for (String warmUp : List.of(
          "SELECT count(*) FROM words w JOIN words x ON w.id = x.id WHERE LOWER(w.s) LIKE 'a%'",
          "SELECT count(*) FROM (VALUES ('ab')) AS t(s) WHERE s LIKE 'a%'",
          "SELECT count(*) FROM words a, words b WHERE a.id + b.id IN (1, 2, 3)",
          "SELECT c0, c9999 FROM wide LIMIT 1")) {
        for (int attempt = 0; attempt < 5; attempt++) {
          Throwable failed = catchThrowable(() -> client.rows(warmUp));
          if (failed == null) {
            break;
          }
          assertThat(Status.code(failed)).as("warm-up %s", warmUp).isEqualTo("DEADLINE_EXCEEDED");
        }
      }
      List<String> report = new ArrayList<>();
      for (String sql : cases) {
        String label = sql.length() > 80 ? sql.substring(0, 80) + "..." : sql;
        Ticket ticket = client.sql().execute(sql, client.auth()).getEndpoints().get(0).getTicket();
        long started = System.nanoTime();
        Throwable failure = catchThrowable(() -> drain(client, ticket));
        long answeredMs = ms(System.nanoTime() - started);
        if (failure == null && (sql.contains("wide") || sql.contains(aLike))) {
          // lake's LIKE is linear, so these answer (no row matches) within the timeout; a wide scan may finish too
          // on a fast machine: then there is nothing left to stop
          report.add(label + ": finished in " + answeredMs + " ms");
        } else {
          assertThat(Status.code(failure)).as("%s is stopped at its deadline", label)
              .isEqualTo("DEADLINE_EXCEEDED");
        }
        long answered = System.nanoTime();
        long stoppedMs = -1;
        while (ms(System.nanoTime() - answered) < STOPPED_WITHIN_MS) {
          if (admission.running() == 0 && server.server().queryLimits().running().size() == 0
              && busyQueryThreads().isEmpty()) {
            stoppedMs = ms(System.nanoTime() - answered);
            break;
          }
          Thread.sleep(20);
        }
        report.add(label + ": answered after " + answeredMs + " ms, stopped " + stoppedMs + " ms later");
        assertThat(stoppedMs).as("%s: within %d ms of DEADLINE_EXCEEDED no thread works for it and its slot is free"
            + " (running=%d, threads=%s)", label, STOPPED_WITHIN_MS, admission.running(), busyQueryThreads())
            .isGreaterThanOrEqualTo(0);
        assertThat(server.server().queryMemory()).as("%s released its memory", label).isZero();
      }
      System.out.println("timedOutQueriesStopAndFreeTheirSlot: " + String.join("; ", report));
      // the LIKE cases answer exactly (no 200-character string of a's ends with b)
      assertThat(client.rows(cases.get(0))).isEqualTo(List.of(List.of(0L)));
      assertThat(client.rows(cases.get(1))).isEqualTo(List.of(List.of(0L)));
      // a wide table's columns are read exactly (value r * columns + c in row r, column c), in row order
      List<List<Object>> wide = client.rows("SELECT c0, c1, c255, c256, c5000, c9999 FROM wide");
      assertThat(wide).hasSize(WIDE_ROWS);
      for (int r = 0; r < WIDE_ROWS; r++) {
        long base = (long) r * WIDE_COLUMNS;
        assertThat(wide.get(r)).as("row %d of the wide table", r)
            .isEqualTo(List.of(base, base + 1, base + 255, base + 256, base + 5000, base + 9999));
      }
      // the node keeps answering
      assertThat(client.rows("SELECT count(*) FROM big").get(0).get(0)).isEqualTo(200_000L);
    }
  }

  private static long ms(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  private static void drain(FlightTestClient client, Ticket ticket) throws Exception {
    try (FlightStream stream = client.sql().getStream(ticket, client.auth())) {
      while (stream.next()) {
        // the deadline ends the call
      }
    }
  }

  /** Live threads (other than this one) inside code that runs a statement, with the frame that shows it. */
  static List<String> busyQueryThreads() {
    List<String> busy = new ArrayList<>();
    Thread.getAllStackTraces().forEach((thread, stack) -> {
      if (thread == Thread.currentThread() || !thread.isAlive()) {
        return;
      }
      for (StackTraceElement frame : stack) {
        String where = frame.getClassName();
        if (QUERY_CODE.stream().anyMatch(where::startsWith)) {
          busy.add(thread.getName() + " at " + frame);
          return;
        }
      }
    });
    return busy;
  }

  private static void ingestStrings(FlightTestClient client, String table, String value, int rows) {
    Schema schema = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
        Field.nullable("s", ArrowType.Utf8.INSTANCE)));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator())) {
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector(0);
      VarCharVector s = (VarCharVector) root.getVector(1);
      for (int i = 0; i < rows; i++) {
        id.setSafe(i, i);
        s.setSafe(i, value.getBytes(StandardCharsets.UTF_8));
      }
      root.setRowCount(rows);
      client.ingest(table, root, FlightTestClient.create());
    }
  }

  /** A table of {@code columns} BIGINT columns c0..cN and {@code rows} rows. */
  static void ingestWide(FlightTestClient client, String table, int columns, int rows) {
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      fields.add(Field.nullable("c" + c, new ArrowType.Int(64, true)));
    }
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), client.allocator())) {
      root.allocateNew();
      for (int c = 0; c < columns; c++) {
        BigIntVector v = (BigIntVector) root.getVector(c);
        for (int r = 0; r < rows; r++) {
          v.setSafe(r, (long) r * columns + c);
        }
      }
      root.setRowCount(rows);
      client.ingest(table, root, FlightTestClient.create());
    }
  }
}
