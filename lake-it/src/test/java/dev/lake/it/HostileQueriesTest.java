package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lake.it.support.ConfiguredServer;
import dev.lake.it.support.ConfiguredServer.TestUser;
import dev.lake.it.support.FlightTestClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statements the hostile-input fuzzer found that took the whole node down, each pinned as a fixed case: the node
 * answers them (or refuses them through lake's error mapping) and keeps answering.
 */
class HostileQueriesTest {
  private static final Schema SCHEMA = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));
  /** Rows in one fragment: with the literal below, one batch of Lance's passes 2^31 bytes of strings. */
  private static final int ROWS = 3_200;
  private static final int LITERAL = 700_000;

  @TempDir
  Path dataDir;

  /**
   * {@code SELECT '<621,524 characters>' FROM fuzz_t} (seed 20261202, request 5220, over a compacted table of a few
   * thousand rows) aborted the JVM: the projection was pushed to Lance's SQL engine, which repeats the literal for
   * every row of a batch, passed its 32-bit string offsets and panicked in native code ("offset overflow"), which
   * cannot unwind into Java. Such expressions now stay in Calcite: the first batch arrives, exact, and the node lives.
   */
  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void pushedLiteralsCannotOverflowLanceOffsets() throws Exception {
    // literals this long are refused before planning by default (query.max-literal-length, 65,536): raised here, so
    // that the planner's own bound on what reaches Lance is what keeps the node alive
    try (ConfiguredServer server = ConfiguredServer.start(dataDir, List.of(new TestUser("lake", "lake", "admin")),
        Map.of("query.max-literal-length", "1000000"), b -> { });
        FlightTestClient client = server.client("lake", "lake")) {
      try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, client.allocator())) {
        for (int i = 0; i < ROWS; i++) {
          ((BigIntVector) root.getVector(0)).setSafe(i, i);
          ((VarCharVector) root.getVector(1)).setSafe(i, ("r" + i).getBytes(StandardCharsets.UTF_8));
        }
        root.setRowCount(ROWS);
        client.ingest("wide_t", root, FlightTestClient.create());
      }
      String literal = "x".repeat(LITERAL);
      for (String sql : List.of("SELECT '" + literal + "' AS s FROM wide_t",
          "SELECT name || '" + literal + "' AS s FROM wide_t WHERE id >= 0",
          "SELECT id AS s FROM wide_t WHERE CASE WHEN id >= 0 THEN '" + literal + "' ELSE name END = name")) {
        String shape = sql.replace(literal, "<" + LITERAL + " x>");
        FlightInfo info = client.sql().execute(sql, client.auth());
        try (FlightStream stream = client.flight().getStream(info.getEndpoints().get(0).getTicket(),
            client.auth())) {
          if (shape.contains("CASE")) {
            long rows = 0;
            while (stream.next()) {
              rows += stream.getRoot().getRowCount();
            }
            assertThat(rows).as(shape).isZero();
            continue;
          }
          assertThat(stream.next()).as(shape).isTrue();
          VarCharVector s = (VarCharVector) stream.getRoot().getVector(0);
          assertThat(stream.getRoot().getRowCount()).as(shape).isPositive();
          String first = new String(s.get(0), StandardCharsets.UTF_8);
          assertThat(first).as(shape).endsWith(literal).hasSizeLessThanOrEqualTo(LITERAL + 6);
          stream.cancel("read enough", null);
        }
      }
      assertThat(client.count("wide_t")).as("the node still answers").isEqualTo(ROWS);
    }
  }

  /**
   * A ticket is signed, not encrypted: whoever holds one can read its payload. It names the table and its pinned
   * version, never where the data lives (the data directory, the table's generation directory).
   */
  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void ticketsHoldNoStorageLocation() throws Exception {
    try (ConfiguredServer server = ConfiguredServer.start(dataDir, List.of(new TestUser("lake", "lake", "admin")),
        Map.of(), b -> { });
        FlightTestClient client = server.client("lake", "lake")) {
      try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, client.allocator())) {
        ((BigIntVector) root.getVector(0)).setSafe(0, 7);
        ((VarCharVector) root.getVector(1)).setSafe(0, "seven".getBytes(StandardCharsets.UTF_8));
        root.setRowCount(1);
        client.ingest("located_t", root, FlightTestClient.create());
      }
      FlightInfo info = client.sql().execute("SELECT name FROM located_t", client.auth());
      byte[] ticket = info.getEndpoints().get(0).getTicket().getBytes();
      String text = new String(ticket, StandardCharsets.ISO_8859_1);
      assertThat(text).as("the ticket's readable payload").contains("located_t").contains("\"v\":1")
          .doesNotContain(dataDir.toString()).doesNotContain(dataDir.toRealPath().toString())
          .doesNotContain("tables/located_t").doesNotContain("file:").doesNotContain("s3://");
      try (FlightStream stream = client.flight().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
        assertThat(stream.next()).as("the ticket still serves its query").isTrue();
        assertThat(stream.getRoot().getVector(0).getObject(0)).hasToString("seven");
      }
    }
  }

  /**
   * Client mistakes the fuzzer's seed 20261202 answered INTERNAL (or without the lake-code trailer): Flight SQL
   * actions with an empty body (requests 168, 2179), {@code VALUES} mixing a number and a date (request 635), a
   * statement ticket whose packed message is cut short (request 4973), and statements of several hundred KB
   * (requests 678, 1203, 3125: their literals are now refused before planning, naming query.max-literal-length; a
   * literal at the limit runs). Each now gets the client's status, with the trailer, promptly.
   */
  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void clientMistakesNeverAnswerInternal() throws Exception {
    try (ConfiguredServer server = ConfiguredServer.start(dataDir, List.of(new TestUser("lake", "lake", "admin")),
        Map.of(), b -> { });
        FlightTestClient client = server.client("lake", "lake")) {
      try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, client.allocator())) {
        for (int i = 0; i < 200; i++) {
          ((BigIntVector) root.getVector(0)).setSafe(i, i);
          ((VarCharVector) root.getVector(1)).setSafe(i, ("r" + i).getBytes(StandardCharsets.UTF_8));
        }
        root.setRowCount(200);
        client.ingest("mistakes_t", root, FlightTestClient.create());
      }
      for (String type : List.of("BeginTransaction", "BeginSavepoint", "EndTransaction", "EndSavepoint",
          "CreatePreparedStatement", "CreatePreparedSubstraitPlan", "ClosePreparedStatement")) {
        assertRefused("action " + type + " with an empty body", FlightStatusCode.INVALID_ARGUMENT, () -> {
          var results = client.flight().doAction(new Action(type, new byte[0]), client.auth());
          while (results.hasNext()) {
            results.next();
          }
        });
      }
      for (String sql : List.of("VALUES (-9223372036854775808), (DATE '2026-01-01')",
          "SELECT * FROM (VALUES (1), (DATE '2026-01-01')) AS v(x)", "SELECT 1 UNION ALL SELECT DATE '2026-01-01'",
          "SELECT CASE WHEN id > 1 THEN id ELSE DATE '2026-01-01' END FROM mistakes_t")) {
        assertRefused(sql, FlightStatusCode.INVALID_ARGUMENT, () -> drain(client, sql));
      }
      FlightInfo info = client.sql().execute("SELECT id FROM mistakes_t", client.auth());
      Any good = Any.parseFrom(info.getEndpoints().get(0).getTicket().getBytes());
      byte[] value = good.getValue().toByteArray();
      for (int cut : new int[] {1, 7, value.length / 2}) {
        byte[] truncated = Any.newBuilder().setTypeUrl(good.getTypeUrl())
            .setValue(ByteString.copyFrom(value, 0, value.length - cut)).build().toByteArray();
        assertRefused("a statement ticket cut " + cut + " bytes short", FlightStatusCode.INVALID_ARGUMENT, () -> {
          try (FlightStream s = client.flight().getStream(new Ticket(truncated), client.auth())) {
            s.next();
          }
        });
      }
      for (int size : new int[] {204_121, 437_621, 885_021}) {
        String sql = "SELECT '" + "x".repeat(size) + "' AS s FROM mistakes_t";
        long start = System.nanoTime();
        assertRefused("a " + size + "-character literal", FlightStatusCode.INVALID_ARGUMENT,
            () -> drain(client, sql));
        System.out.printf("a %d-character literal refused in %d ms%n", size, (System.nanoTime() - start) / 1_000_000);
      }
      for (int size : new int[] {65_536}) {
        String literal = "x".repeat(size);
        long start = System.nanoTime();
        FlightInfo big = client.sql().execute("SELECT '" + literal + "' AS s FROM mistakes_t", client.auth());
        try (FlightStream stream = client.flight().getStream(big.getEndpoints().get(0).getTicket(),
            client.auth())) {
          long rows = 0;
          while (stream.next()) {
            VarCharVector s = (VarCharVector) stream.getRoot().getVector(0);
            assertThat(s.getValueLength(0)).as("a " + size + "-character literal").isEqualTo(size);
            rows += stream.getRoot().getRowCount();
          }
          assertThat(rows).as("rows of a " + size + "-character literal").isEqualTo(200);
        }
        System.out.printf("a %d-character literal over 200 rows: %d ms%n", size,
            (System.nanoTime() - start) / 1_000_000);
      }
      assertThat(client.count("mistakes_t")).isEqualTo(200);
    }
  }

  private static void drain(FlightTestClient client, String sql) throws Exception {
    FlightInfo info = client.sql().execute(sql, client.auth());
    try (FlightStream s = client.flight().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
      while (s.next()) {
        // read and drop
      }
    }
  }

  private interface Call {
    void run() throws Exception;
  }

  private static void assertRefused(String what, FlightStatusCode code, Call call) {
    try {
      call.run();
    } catch (FlightRuntimeException e) {
      assertThat(e.status().code()).as(what + ": " + e.status().description()).isEqualTo(code);
      if (what.endsWith("-character literal")) {
        assertThat(e.status().description()).as(what).contains("query.max-literal-length");
      }
      var md = e.status().metadata();
      assertThat(md != null && md.keys().contains("lake-code") ? md.get("lake-code") : null)
          .as(what + ": the lake-code trailer").isEqualTo(code.name());
      return;
    } catch (Exception e) {
      throw new AssertionError(what + ": " + e, e);
    }
    throw new AssertionError(what + ": answered OK, expected " + code);
  }
}
