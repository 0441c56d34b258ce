package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.it.support.AllTypes;
import dev.lake.it.support.ArrowStreams;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Status;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Issue 2's end-to-end acceptance tests through real Flight SQL clients: FlightSqlClient and the JDBC driver. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FlightSqlEndToEndTest {
  @TempDir
  static java.nio.file.Path dataDir;
  private LakeTestServer server;
  private FlightTestClient client;

  @BeforeAll
  void start() throws Exception {
    server = LakeTestServer.start(dataDir);
    client = server.client();
  }

  @AfterAll
  void stop() throws Exception {
    client.close();
    server.close();
  }

  @Test
  void jdbcClientIngestsAndQueriesThroughFlightSql() throws Exception {
    long first;
    try (VectorSchemaRoot b1 = AllTypes.batch(client.allocator(), 0, 3);
        VectorSchemaRoot b2 = AllTypes.batch(client.allocator(), 3, 3)) {
      first = client.ingest("all_types", ArrowStreams.of(client.allocator(), b1, b2), FlightTestClient.create(),
          Map.of());
    }
    assertThat(first).isEqualTo(6);

    // FlightSqlClient: exactly the values sent, types included (microseconds and zones survive).
    List<Schema> schemas = new ArrayList<>();
    List<List<Object>> rows = new ArrayList<>();
    client.query("SELECT * FROM all_types", root -> {
      schemas.add(root.getSchema());
      for (int r = 0; r < root.getRowCount(); r++) {
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < root.getFieldVectors().size(); c++) {
          row.add(AllTypes.normalize(root.getVector(c).getObject(r)));
        }
        rows.add(row);
      }
    });
    assertThat(schemas.get(0).getFields()).extracting(Field::getName)
        .containsExactlyElementsOf(AllTypes.SCHEMA.getFields().stream().map(Field::getName).toList());
    assertThat(schemas.get(0).getFields()).extracting(Field::getType)
        .containsExactlyElementsOf(AllTypes.SCHEMA.getFields().stream().map(Field::getType).toList());
    rows.sort(Comparator.comparingLong(r -> (Long) r.get(0)));
    List<List<Object>> expected = new ArrayList<>();
    try (VectorSchemaRoot all = AllTypes.batch(client.allocator(), 0, 6)) {
      for (int r = 0; r < 6; r++) {
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < all.getFieldVectors().size(); c++) {
          row.add(AllTypes.normalize(all.getVector(c).getObject(r)));
        }
        expected.add(row);
      }
    }
    assertThat(rows).isEqualTo(expected);

    // The JDBC driver reads the same values at the precision it supports.
    try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
        Statement st = jdbc.createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM all_types")) {
      int seen = 0;
      while (rs.next()) {
        seen++;
        int id = (int) rs.getLong("id");
        boolean nulls = id % 3 == 2;
        boolean edge = id % 3 == 1;
        if (nulls) {
          for (int c = 2; c <= AllTypes.SCHEMA.getFields().size(); c++) {
            assertThat(rs.getString(c)).as("column %d of row %d is NULL", c, id).isNull();
            assertThat(rs.wasNull()).as("column %d of row %d is NULL", c, id).isTrue();
          }
          continue;
        }
        assertThat(rs.getInt("c_int")).isEqualTo(edge ? Integer.MIN_VALUE : id * 1000);
        assertThat(rs.getLong("c_bigint")).isEqualTo(edge ? Long.MAX_VALUE : id * 1_000_000_007L);
        assertThat(rs.getBigDecimal("c_dec38")).isEqualTo(AllTypes.dec38(id, edge));
        assertThat(rs.getBigDecimal("c_dec12")).isEqualTo(AllTypes.dec12(id, edge));
        assertThat(rs.getString("c_varchar")).isEqualTo(AllTypes.varchar(id, edge));
        assertThat(rs.getBoolean("c_boolean")).isEqualTo(!edge);
        assertThat(rs.getDate("c_date").toLocalDate()).isEqualTo(AllTypes.date(id, edge));
        // TIME reads at millisecond precision (java.sql.Time.toLocalTime() would drop the milliseconds too)
        assertThat(rs.getTime("c_time").getTime()).isEqualTo(AllTypes.time(id, edge).toNanoOfDay() / 1_000_000);
        Timestamp ts = rs.getTimestamp("c_timestamp");
        assertThat(ts.toLocalDateTime()).isEqualTo(AllTypes.timestamp(id, edge));
        // A zoned TIMESTAMP: the 18.3.0 driver's getObject gives the wall-clock time in the column's zone, to the
        // microsecond (its getTimestamp shifts that once more by the zone offset: a driver bug, see README).
        LocalDateTime wallClock = ((Timestamp) rs.getObject("c_timestamptz")).toLocalDateTime();
        assertThat(wallClock).isEqualTo(AllTypes.timestamp(id, !edge).atZone(ZoneOffset.UTC)
            .withZoneSameInstant(java.time.ZoneId.of(AllTypes.ZONE)).toLocalDateTime());
        assertThat(rs.getBytes("c_varbinary")).isEqualTo(AllTypes.binary(id, edge));
      }
      assertThat(seen).isEqualTo(6);
    }

    // A second ingest appends: the count doubles.
    try (VectorSchemaRoot b1 = AllTypes.batch(client.allocator(), 6, 3);
        VectorSchemaRoot b2 = AllTypes.batch(client.allocator(), 9, 3)) {
      assertThat(client.ingest("all_types", ArrowStreams.of(client.allocator(), b1, b2), FlightTestClient.append(),
          Map.of())).isEqualTo(6);
    }
    assertThat(client.count("all_types")).isEqualTo(12);
  }

  @Test
  void preparedStatementBindsParameters() throws Exception {
    Schema schema = new Schema(List.of(Field.nullable("big", new ArrowType.Int(64, true)),
        Field.nullable("name", new ArrowType.Utf8()),
        Field.nullable("event_day", new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY)),
        Field.nullable("amount", new ArrowType.Decimal(12, 2, 128))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator())) {
      root.allocateNew();
      for (int i = 0; i < 10; i++) {
        ((BigIntVector) root.getVector(0)).setSafe(i, 100L + i);
        ((org.apache.arrow.vector.VarCharVector) root.getVector(1)).setSafe(i,
            ("n" + i).getBytes(StandardCharsets.UTF_8));
        ((org.apache.arrow.vector.DateDayVector) root.getVector(2)).setSafe(i,
            (int) java.time.LocalDate.of(2026, 1, 1).plusDays(i).toEpochDay());
        ((org.apache.arrow.vector.DecimalVector) root.getVector(3)).setSafe(i, new BigDecimal(i + ".50"));
      }
      root.setRowCount(10);
      client.ingest("params", root, FlightTestClient.create());
    }
    try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
        PreparedStatement ps = jdbc.prepareStatement(
            "SELECT big, name FROM params WHERE big >= ? AND name <> ? AND event_day <= ? AND amount > ? ORDER BY big")) {
      ps.setLong(1, 102);
      ps.setString(2, "n4");
      ps.setDate(3, java.sql.Date.valueOf("2026-01-07"));
      ps.setBigDecimal(4, new BigDecimal("2.75"));
      assertThat(bigs(ps)).containsExactly(103L, 105L, 106L);
      // Re-executing the same prepared statement with new values binds them afresh.
      ps.setLong(1, 100);
      ps.setString(2, "n0");
      ps.setDate(3, java.sql.Date.valueOf("2026-01-03"));
      ps.setBigDecimal(4, new BigDecimal("0.00"));
      assertThat(bigs(ps)).containsExactly(101L, 102L);
    }
  }

  @Test
  void jdbcTimeAndTimestampParametersCompareAsTheirValues() throws Exception {
    // microsecond columns; the JDBC driver writes a parameter's milliseconds into the announced unit unscaled, so a
    // microsecond announcement made 2026-01-01 10:00:03.250 arrive as a moment of January 1970
    Schema schema = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
        Field.nullable("ts", new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, null)),
        Field.nullable("t", new ArrowType.Time(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, 64))));
    java.time.LocalDateTime base = java.time.LocalDateTime.of(2026, 1, 1, 10, 0, 0, 250_000_000);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator())) {
      root.allocateNew();
      for (int i = 0; i < 10; i++) {
        java.time.LocalDateTime at = base.plusSeconds(i);
        ((BigIntVector) root.getVector(0)).setSafe(i, i);
        ((org.apache.arrow.vector.TimeStampMicroVector) root.getVector(1)).setSafe(i,
            at.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000 + at.getNano() / 1_000);
        ((org.apache.arrow.vector.TimeMicroVector) root.getVector(2)).setSafe(i, at.toLocalTime().toNanoOfDay() / 1_000);
      }
      root.setRowCount(10);
      client.ingest("moments", root, FlightTestClient.create());
    }
    try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
        PreparedStatement from = jdbc.prepareStatement("SELECT id FROM moments WHERE ts >= ? ORDER BY id");
        PreparedStatement at = jdbc.prepareStatement("SELECT id FROM moments WHERE ts = ? AND t = ? ORDER BY id")) {
      from.setTimestamp(1, java.sql.Timestamp.valueOf("2026-01-01 10:00:07.250"));
      assertThat(bigs(from)).containsExactly(7L, 8L, 9L);
      at.setTimestamp(1, java.sql.Timestamp.valueOf("2026-01-01 10:00:03.250"));
      at.setTime(2, new java.sql.Time(java.sql.Time.valueOf("10:00:03").getTime() + 250));
      assertThat(bigs(at)).containsExactly(3L);
    }
  }

  private static List<Long> bigs(PreparedStatement ps) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getLong(1));
      }
    }
    return out;
  }

  @Test
  void readOnlySurfaceRejectsDdlAndDml() throws Exception {
    Map<String, String> statements = Map.of(
        "INSERT INTO t VALUES (1)", "INSERT",
        "UPDATE t SET a = 1", "UPDATE",
        "DELETE FROM t", "DELETE",
        "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET a = 1", "MERGE",
        "CREATE TABLE t (a INT)", "CREATE",
        "DROP TABLE t", "DROP",
        "ALTER TABLE t ADD COLUMN b INT", "ALTER");
    try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
      for (Map.Entry<String, String> e : statements.entrySet()) {
        try (Statement st = jdbc.createStatement()) {
          assertThatThrownBy(() -> st.execute(e.getKey()))
              .as(e.getKey())
              .isInstanceOf(SQLException.class)
              .hasMessageContaining(e.getValue())
              .hasMessageContaining("not allowed");
        }
      }
      try (Statement st = jdbc.createStatement(); ResultSet rs = st.executeQuery("SELECT 1 + 1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
      }
    }
  }

  @Test
  void badInputGetsClearErrors() throws Exception {
    try (VectorSchemaRoot b = AllTypes.batch(client.allocator(), 0, 3)) {
      client.ingest("bad_input", b, FlightTestClient.create());
    }
    FlightSqlClient sql = client.sql();
    expect("malformed SQL", "INVALID_ARGUMENT", () -> client.rows("SELEC 1 FROM"));
    expect("unknown table", "NOT_FOUND", () -> client.rows("SELECT * FROM no_such_table"));
    expect("garbage ticket", "INVALID_ARGUMENT", () -> {
      try (var s = sql.getStream(new Ticket("garbage".getBytes(StandardCharsets.UTF_8)), client.auth())) {
        s.next();
      }
    });
    expect("unknown lake action", "UNIMPLEMENTED", () -> client.flight()
        .doAction(new Action("lake.no_such_action", "{}".getBytes(StandardCharsets.UTF_8)), client.auth())
        .forEachRemaining(r -> {}));
    expect("unknown action", "UNIMPLEMENTED", () -> client.flight()
        .doAction(new Action("NoSuchAction", new byte[0]), client.auth()).forEachRemaining(r -> {}));
    expect("drop body that is not JSON", "INVALID_ARGUMENT", () -> client.flight()
        .doAction(new Action("lake.drop_table", "{not json".getBytes(StandardCharsets.UTF_8)), client.auth())
        .forEachRemaining(r -> {}));
    Schema other = new Schema(List.of(Field.nullable("id", new ArrowType.Utf8())));
    expect("append with a mismatched schema", "INVALID_ARGUMENT", () -> {
      try (VectorSchemaRoot wrong = VectorSchemaRoot.create(other, client.allocator())) {
        wrong.allocateNew();
        wrong.setRowCount(0);
        client.ingest("bad_input", wrong, FlightTestClient.append());
      }
    });
    expect("create of an existing table", "ALREADY_EXISTS", () -> {
      try (VectorSchemaRoot again = AllTypes.batch(client.allocator(), 0, 1)) {
        client.ingest("bad_input", again, FlightTestClient.create());
      }
    });
    expect("wrong credentials", "UNAUTHENTICATED",
        () -> FlightTestClient.connect(server.port(), "lake", "wrong").close());
    assertThat(client.count("bad_input")).isEqualTo(3);
  }

  private void expect(String what, String code, ThrowingRunnable call) throws Exception {
    Throwable thrown = null;
    try {
      call.run();
    } catch (Throwable t) {
      thrown = t;
    }
    assertThat(thrown).as(what + " must fail").isNotNull();
    assertThat(Status.code(thrown)).as(what + ": " + thrown.getMessage()).isEqualTo(code);
    assertThat(thrown.getMessage()).as(what).isNotBlank().doesNotContain("\tat ");
    // The server keeps serving.
    assertThat(client.rows("SELECT 42")).containsExactly(List.of(42));
  }

  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }
}
