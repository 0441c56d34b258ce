package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.ArrowStreams;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.tpch.DuckDbReference;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exact answers on every engine path (issue 21): one server per {@code query.executor} (auto, vectorized, lance-sql,
 * calcite) over the same data, queried through Arrow Flight SQL's FlightSqlClient. Temporal values keep their
 * microseconds through every operator, decimals are rounded half-up at the result scale (checked against
 * BigDecimal), aggregates are typed like DuckDB's and integer sums never wrap.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExactResultsTest {
  private static final List<String> EXECUTORS = List.of("auto", "vectorized", "lance-sql", "calcite");
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long MICROS_PER_DAY = 86_400L * MICROS_PER_SECOND;
  /** 2024-03-05 12:34:56.789012 UTC in microseconds. */
  private static final long BASE = LocalDateTime.of(2024, 3, 5, 12, 34, 56, 789_012_000).toEpochSecond(ZoneOffset.UTC)
      * MICROS_PER_SECOND + 789_012;
  private static final int TEMPORAL_ROWS = 40;
  private static final int DECIMAL_ROWS = 300;

  private final Map<String, LakeTestServer> servers = new LinkedHashMap<>();
  private final Map<String, FlightTestClient> clients = new LinkedHashMap<>();
  private BufferAllocator allocator;
  private DuckDbReference duckDb;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    allocator = new RootAllocator();
    duckDb = DuckDbReference.open(1);
    for (String executor : EXECUTORS) {
      LakeTestServer server = LakeTestServer.start(dir.resolve(executor), b -> {},
          Map.of("query.executor", executor));
      servers.put(executor, server);
      FlightTestClient client = server.client();
      clients.put(executor, client);
      try (VectorSchemaRoot temporal = temporal(client.allocator());
          VectorSchemaRoot other = other(client.allocator());
          VectorSchemaRoot decimals = decimals(client.allocator());
          VectorSchemaRoot integers = integers(client.allocator())) {
        client.ingest("temporal", temporal, FlightTestClient.create());
        client.ingest("other", other, FlightTestClient.create());
        client.ingest("decimals", decimals, FlightTestClient.create());
        client.ingest("integers", integers, FlightTestClient.create());
      }
    }
    try (VectorSchemaRoot integers = integers(allocator)) {
      duckDb.load("integers", ArrowStreams.of(allocator, integers), allocator);
    }
  }

  @AfterAll
  void stop() throws Exception {
    for (FlightTestClient client : clients.values()) {
      client.close();
    }
    for (LakeTestServer server : servers.values()) {
      server.close();
    }
    duckDb.close();
    allocator.close();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Temporal values

  /** Row i: block i / 4 holds four values in one millisecond, microseconds 0, 1, 2, 2 apart; row 40 is all nulls. */
  private static long ts(int i) {
    return BASE + (i / 4) * 61_000_123_457L + (i % 4 == 3 ? 2 : i % 4);
  }

  private static long tsz(int i) {
    return ts(i) + 7;
  }

  private static long time(int i) {
    return Math.floorMod(BASE + i * 1_000_001L, MICROS_PER_DAY);
  }

  private static VectorSchemaRoot temporal(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("grp", new ArrowType.Int(64, true)),
        Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
        Field.nullable("tsz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "Europe/Berlin")),
        Field.nullable("t", new ArrowType.Time(TimeUnit.MICROSECOND, 64))));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
    for (int i = 0; i <= TEMPORAL_ROWS; i++) {
      ((BigIntVector) root.getVector("id")).setSafe(i, i);
      if (i == TEMPORAL_ROWS) {
        root.getVector("grp").setNull(i);
        root.getVector("ts").setNull(i);
        root.getVector("tsz").setNull(i);
        root.getVector("t").setNull(i);
        continue;
      }
      ((BigIntVector) root.getVector("grp")).setSafe(i, i / 4);
      ((TimeStampMicroVector) root.getVector("ts")).setSafe(i, ts(i));
      ((TimeStampMicroTZVector) root.getVector("tsz")).setSafe(i, tsz(i));
      ((TimeMicroVector) root.getVector("t")).setSafe(i, time(i));
    }
    root.setRowCount(TEMPORAL_ROWS + 1);
    return root;
  }

  /** Ten rows whose ts equals ts(4j + 1): exactly one temporal row each (four within the same millisecond). */
  private static VectorSchemaRoot other(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(
        Field.notNullable("oid", new ArrowType.Int(64, true)),
        Field.nullable("ots", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
    for (int j = 0; j < 10; j++) {
      ((BigIntVector) root.getVector("oid")).setSafe(j, 100 + j);
      ((TimeStampMicroVector) root.getVector("ots")).setSafe(j, ts(4 * j + 1));
    }
    root.setRowCount(10);
    return root;
  }

  @Test
  void computedTemporalValuesKeepMicroseconds() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (String executor : EXECUTORS) {
      FlightTestClient client = clients.get(executor);
      Map<String, List<List<Object>>> expected = temporalExpectations();
      for (Map.Entry<String, List<List<Object>>> query : expected.entrySet()) {
        try {
          Result result = run(client, query.getKey());
          result.requireFineUnits();
          if (!result.rows.equals(query.getValue())) {
            wrong.add(executor + ": " + query.getKey() + "\n  expected " + query.getValue() + "\n  answered "
                + result.rows);
          }
        } catch (RuntimeException | AssertionError e) {
          wrong.add(executor + ": " + query.getKey() + "\n  failed: " + e);
        }
      }
      // A parameter of a prepared statement keeps its microseconds: as a filter and as a projected value.
      try {
        List<List<Object>> byParameter = prepared(client, "SELECT id, CAST(? AS TIMESTAMP(6)) AS p FROM temporal"
            + " WHERE ts = ? ORDER BY id", ts(5));
        List<List<Object>> wanted = List.of(List.of(5L, ts(5)));
        if (!byParameter.equals(wanted)) {
          wrong.add(executor + ": parameter\n  expected " + wanted + "\n  answered " + byParameter);
        }
      } catch (RuntimeException | AssertionError e) {
        wrong.add(executor + ": parameter\n  failed: " + e);
      }
    }
    assertThat(wrong).as("temporal answers that lost microseconds").isEmpty();
  }

  private static Map<String, List<List<Object>>> temporalExpectations() {
    Map<String, List<List<Object>>> queries = new LinkedHashMap<>();
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < TEMPORAL_ROWS; i++) {
      ids.add(i);
    }
    queries.put("SELECT id, ts, tsz, t FROM temporal WHERE id < 40 ORDER BY id",
        rows(ids, i -> List.of((long) i, ts(i), tsz(i), time(i))));
    queries.put("SELECT id, ts, tsz, t FROM temporal ORDER BY ts DESC NULLS LAST, id LIMIT 5",
        List.of(List.of(38L, ts(38), tsz(38), time(38)), List.of(39L, ts(39), tsz(39), time(39)),
            List.of(37L, ts(37), tsz(37), time(37)), List.of(36L, ts(36), tsz(36), time(36)),
            List.of(34L, ts(34), tsz(34), time(34))));
    long minT = ids.stream().mapToLong(ExactResultsTest::time).min().orElseThrow();
    long maxT = ids.stream().mapToLong(ExactResultsTest::time).max().orElseThrow();
    queries.put("SELECT MIN(ts), MAX(ts), MIN(tsz), MAX(tsz), MIN(t), MAX(t) FROM temporal",
        List.of(List.of(ts(0), ts(38), tsz(0), tsz(38), minT, maxT)));
    List<List<Object>> groups = new ArrayList<>();
    for (int block = 0; block < TEMPORAL_ROWS / 4; block++) {
      groups.add(List.of(ts(4 * block), 1L));
      groups.add(List.of(ts(4 * block + 1), 1L));
      groups.add(List.of(ts(4 * block + 2), 2L));
    }
    queries.put("SELECT ts, COUNT(*) AS n FROM temporal WHERE ts IS NOT NULL GROUP BY ts ORDER BY ts", groups);
    List<List<Object>> perGroup = new ArrayList<>();
    for (int block = 0; block < TEMPORAL_ROWS / 4; block++) {
      perGroup.add(List.of((long) block, ts(4 * block), ts(4 * block + 2), tsz(4 * block + 2)));
    }
    queries.put("SELECT grp, MIN(ts), MAX(ts), MAX(tsz) FROM temporal WHERE grp IS NOT NULL GROUP BY grp"
        + " ORDER BY grp", perGroup);
    List<List<Object>> joined = new ArrayList<>();
    for (int j = 0; j < 10; j++) {
      joined.add(List.of((long) (4 * j + 1), 100L + j, ts(4 * j + 1)));
    }
    queries.put("SELECT a.id, b.oid, b.ots FROM temporal a JOIN other b ON a.ts = b.ots ORDER BY a.id", joined);
    queries.put("SELECT id, ts + INTERVAL '1' SECOND, tsz - INTERVAL '1' DAY, t + INTERVAL '1' MINUTE,"
        + " ts + INTERVAL '1' MONTH FROM temporal WHERE id < 40 ORDER BY id",
        rows(ids, i -> List.of((long) i, ts(i) + MICROS_PER_SECOND, tsz(i) - MICROS_PER_DAY,
            Math.floorMod(time(i) + 60 * MICROS_PER_SECOND, MICROS_PER_DAY), plusMonth(ts(i)))));
    queries.put("SELECT id, CASE WHEN MOD(id, 2) = 0 THEN ts ELSE ts + INTERVAL '1' HOUR END,"
        + " CASE WHEN id > 5 THEN t ELSE NULL END, COALESCE(tsz, TIMESTAMP '2000-01-01 00:00:00.000001')"
        + " FROM temporal WHERE id < 40 ORDER BY id",
        rows(ids, i -> {
          List<Object> row = new ArrayList<>();
          row.add((long) i);
          row.add(i % 2 == 0 ? ts(i) : ts(i) + 3_600 * MICROS_PER_SECOND);
          row.add(i > 5 ? time(i) : null);
          row.add(tsz(i));
          return row;
        }));
    queries.put("SELECT id, CAST(ts AS VARCHAR), CAST(t AS VARCHAR), CAST(CAST(ts AS VARCHAR) AS TIMESTAMP(6)),"
        + " CAST(CAST(t AS VARCHAR) AS TIME(6)), ts > TIMESTAMP '2024-03-05 12:34:56.789013'"
        + " FROM temporal WHERE id < 8 ORDER BY id",
        rows(ids.subList(0, 8), i -> List.of((long) i, text(ts(i)), timeText(time(i)), ts(i), time(i),
            ts(i) > BASE + 1)));
    queries.put("SELECT id, MAX(ts) OVER (PARTITION BY grp), LAG(ts) OVER (ORDER BY id),"
        + " MIN(t) OVER (PARTITION BY grp) FROM temporal WHERE id < 40 ORDER BY id",
        rows(ids, i -> {
          List<Object> row = new ArrayList<>();
          row.add((long) i);
          row.add(ts(4 * (i / 4) + 2));
          row.add(i == 0 ? null : ts(i - 1));
          long min = Long.MAX_VALUE;
          for (int k = 4 * (i / 4); k < 4 * (i / 4) + 4; k++) {
            min = Math.min(min, time(k));
          }
          row.add(min);
          return row;
        }));
    return queries;
  }

  private static long plusMonth(long micros) {
    LocalDateTime at = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
        (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000, ZoneOffset.UTC).plusMonths(1);
    return at.toEpochSecond(ZoneOffset.UTC) * MICROS_PER_SECOND + at.getNano() / 1000;
  }

  private static String text(long micros) {
    LocalDateTime at = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
        (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000, ZoneOffset.UTC);
    return String.format("%s %s", at.toLocalDate(), timeText(Math.floorMod(micros, MICROS_PER_DAY)));
  }

  private static String timeText(long microsOfDay) {
    LocalTime time = LocalTime.ofNanoOfDay(microsOfDay * 1000);
    return String.format("%02d:%02d:%02d.%06d", time.getHour(), time.getMinute(), time.getSecond(),
        time.getNano() / 1000);
  }

  private static List<List<Object>> rows(List<Integer> ids, Function<Integer, List<Object>> row) {
    List<List<Object>> rows = new ArrayList<>();
    for (int i : ids) {
      rows.add(row.apply(i));
    }
    return rows;
  }

  @Test
  void nanosecondTimestampsRoundTripOrAreRefused() throws Exception {
    Schema schema = new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
        Field.nullable("tn", new ArrowType.Time(TimeUnit.NANOSECOND, 64))));
    long base = BASE * 1000 + 345; // 2024-03-05 12:34:56.789012345
    FlightTestClient client = clients.get("auto");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator())) {
      root.allocateNew();
      for (int i = 0; i < 8; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, i);
        ((TimeStampNanoVector) root.getVector("ns")).setSafe(i, base + i * 1_000_000_001L + (i % 2));
        ((TimeNanoVector) root.getVector("tn")).setSafe(i, Math.floorMod(base, MICROS_PER_DAY * 1000) + i);
      }
      root.setRowCount(8);
      client.ingest("nanos", root, FlightTestClient.create());
    }
    List<String> wrong = new ArrayList<>();
    for (String executor : EXECUTORS) {
      FlightTestClient on = clients.get(executor);
      if (!executor.equals("auto")) {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, on.allocator())) {
          root.allocateNew();
          for (int i = 0; i < 8; i++) {
            ((BigIntVector) root.getVector("id")).setSafe(i, i);
            ((TimeStampNanoVector) root.getVector("ns")).setSafe(i, base + i * 1_000_000_001L + (i % 2));
            ((TimeNanoVector) root.getVector("tn")).setSafe(i, Math.floorMod(base, MICROS_PER_DAY * 1000) + i);
          }
          root.setRowCount(8);
          on.ingest("nanos", root, FlightTestClient.create());
        }
      }
      List<List<Object>> expected = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        expected.add(List.of((long) i, base + i * 1_000_000_001L + (i % 2),
            base + i * 1_000_000_001L + (i % 2) + 1_000_000_000L,
            Math.floorMod(base, MICROS_PER_DAY * 1000) + i));
      }
      for (String sql : List.of(
          "SELECT id, ns, ns + INTERVAL '1' SECOND, tn FROM nanos ORDER BY id",
          "SELECT id, ns, ns + INTERVAL '1' SECOND, tn FROM nanos ORDER BY ns")) {
        try {
          Result result = run(on, sql);
          for (Field field : result.schema.getFields().subList(1, 4)) {
            TimeUnit unit = field.getType() instanceof ArrowType.Timestamp
                ? ((ArrowType.Timestamp) field.getType()).getUnit() : ((ArrowType.Time) field.getType()).getUnit();
            if (unit != TimeUnit.NANOSECOND) {
              wrong.add(executor + ": " + sql + ": column " + field + " is not in nanoseconds");
            }
          }
          if (!result.raw.equals(expected)) {
            wrong.add(executor + ": " + sql + "\n  expected " + expected + "\n  answered " + result.raw);
          }
        } catch (RuntimeException e) {
          wrong.add(executor + ": " + sql + "\n  failed: " + e);
        }
      }
    }
    assertThat(wrong).as("nanosecond answers").isEmpty();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Decimals

  private static BigDecimal a(int i) {
    Random random = new Random(i * 31L + 7);
    return BigDecimal.valueOf(random.nextLong() % 10_000_000_000_000L, 2); // DECIMAL(15,2)
  }

  private static BigDecimal b(int i) {
    Random random = new Random(i * 17L + 3);
    return BigDecimal.valueOf(random.nextLong() % 100_000_000_000L, 4); // DECIMAL(12,4)
  }

  private static BigDecimal c(int i) {
    Random random = new Random(i * 13L + 5);
    long unscaled = random.nextInt(1_999_999) - 999_999;
    return BigDecimal.valueOf(unscaled == 0 ? 7 : unscaled, 3); // DECIMAL(7,3), never zero
  }

  private static VectorSchemaRoot decimals(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.notNullable("grp", new ArrowType.Int(64, true)),
        Field.notNullable("a", new ArrowType.Decimal(15, 2, 128)),
        Field.notNullable("b", new ArrowType.Decimal(12, 4, 128)),
        Field.notNullable("c", new ArrowType.Decimal(7, 3, 128))));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
    for (int i = 0; i < DECIMAL_ROWS; i++) {
      ((BigIntVector) root.getVector("id")).setSafe(i, i);
      ((BigIntVector) root.getVector("grp")).setSafe(i, i % 7);
      ((DecimalVector) root.getVector("a")).setSafe(i, a(i));
      ((DecimalVector) root.getVector("b")).setSafe(i, b(i));
      ((DecimalVector) root.getVector("c")).setSafe(i, c(i));
    }
    root.setRowCount(DECIMAL_ROWS);
    return root;
  }

  @Test
  void decimalResultsAreCorrectlyRounded() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (String executor : EXECUTORS) {
      FlightTestClient client = clients.get(executor);
      // Aggregates per group: AVG and a ratio of sums (TPC-H Q8's shape).
      String grouped = "SELECT grp, AVG(a), AVG(b), SUM(a) / SUM(c), AVG(a * b), SUM(a * b) FROM decimals"
          + " GROUP BY grp ORDER BY grp";
      check(wrong, executor, client, grouped, (row, g) -> {
        List<BigDecimal> exact = new ArrayList<>();
        BigDecimal sumA = BigDecimal.ZERO;
        BigDecimal sumB = BigDecimal.ZERO;
        BigDecimal sumC = BigDecimal.ZERO;
        BigDecimal sumAb = BigDecimal.ZERO;
        int n = 0;
        for (int i = g; i < DECIMAL_ROWS; i += 7) {
          sumA = sumA.add(a(i));
          sumB = sumB.add(b(i));
          sumC = sumC.add(c(i));
          sumAb = sumAb.add(a(i).multiply(b(i)));
          n++;
        }
        BigDecimal count = BigDecimal.valueOf(n);
        exact.add(BigDecimal.valueOf(g));
        exact.add(ratio(sumA, count));
        exact.add(ratio(sumB, count));
        exact.add(ratio(sumA, sumC));
        exact.add(ratio(sumAb, count));
        exact.add(sumAb);
        return exact;
      }, 7, List.of(1, 2, 3, 4));
      // Row by row: division, multiplication and CAST.
      String perRow = "SELECT id, a / c, b / c, a * b, a * c, CAST(b AS DECIMAL(12, 1)), CAST(a / 3 AS DECIMAL(14, 3)),"
          + " b / 7, CAST(a AS DECIMAL(15, 0)) FROM decimals ORDER BY id";
      check(wrong, executor, client, perRow, (row, i) -> List.of(BigDecimal.valueOf(i), ratio(a(i), c(i)),
          ratio(b(i), c(i)), a(i).multiply(b(i)), a(i).multiply(c(i)), b(i), ratio(a(i), BigDecimal.valueOf(3)),
          ratio(b(i), BigDecimal.valueOf(7)), a(i)), DECIMAL_ROWS, List.of(1, 2, 7));
    }
    assertThat(wrong).as("decimal answers not equal to the exact value rounded half-up at the result scale")
        .isEmpty();
  }

  /** An exact ratio, to be rounded at the result's scale (40 digits first: far beyond any result scale). */
  private static BigDecimal ratio(BigDecimal x, BigDecimal y) {
    return x.divide(y, new java.math.MathContext(60, RoundingMode.HALF_EVEN));
  }

  @FunctionalInterface
  private interface Expected {
    List<BigDecimal> row(List<Object> answered, int index);
  }

  /**
   * Checks every row: each column equals the exact value rounded half-up at the column's declared scale; the
   * columns in {@code divisions} (divisions and averages) declare a scale of at least 6.
   */
  private void check(List<String> wrong, String executor, FlightTestClient client, String sql, Expected expected,
      int rowCount, List<Integer> divisions) throws Exception {
    Result result;
    try {
      result = run(client, sql);
    } catch (RuntimeException e) {
      wrong.add(executor + ": " + sql + "\n  failed: " + e);
      return;
    }
    if (result.rows.size() != rowCount) {
      wrong.add(executor + ": " + sql + ": " + result.rows.size() + " rows");
      return;
    }
    for (int c : divisions) {
      ArrowType type = result.schema.getFields().get(c).getType();
      if (!(type instanceof ArrowType.Decimal) || ((ArrowType.Decimal) type).getScale() < 6) {
        wrong.add(executor + ": " + sql + ": column " + c + " is " + type + ", not a DECIMAL of scale >= 6");
      }
    }
    int reported = 0;
    for (int r = 0; r < rowCount && reported < 5; r++) {
      List<Object> row = result.rows.get(r);
      List<BigDecimal> exact = expected.row(row, r);
      for (int c = 1; c < exact.size(); c++) {
        ArrowType type = result.schema.getFields().get(c).getType();
        if (!(type instanceof ArrowType.Decimal)) {
          wrong.add(executor + ": " + sql + ": column " + c + " is " + type);
          reported = 5;
          break;
        }
        int scale = ((ArrowType.Decimal) type).getScale();
        BigDecimal want = exact.get(c).setScale(scale, RoundingMode.HALF_UP);
        if (!want.equals(row.get(c))) {
          wrong.add(executor + ": " + sql + ": row " + r + " column " + c + ": expected " + want + " (exact "
              + exact.get(c).round(new java.math.MathContext(30)) + "), answered " + row.get(c));
          reported++;
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Aggregate result types

  private static VectorSchemaRoot integers(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.notNullable("i", new ArrowType.Int(32, true)),
        Field.notNullable("big", new ArrowType.Int(64, true)),
        Field.notNullable("huge", new ArrowType.Int(64, true))));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
    for (int r = 0; r < 10; r++) {
      ((BigIntVector) root.getVector("id")).setSafe(r, r);
      ((IntVector) root.getVector("i")).setSafe(r, r * 3 + (r % 2));
      ((BigIntVector) root.getVector("big")).setSafe(r, 1_000_000_007L * r - 3);
      ((BigIntVector) root.getVector("huge")).setSafe(r, Long.MAX_VALUE - r);
    }
    root.setRowCount(10);
    return root;
  }

  @Test
  void aggregateResultTypesMatchAnalyticsEngines() throws Exception {
    String sql = "SELECT AVG(i), AVG(big), SUM(i), SUM(big), MIN(i), MAX(big), COUNT(*) FROM integers";
    List<Object> reference = duckDb.rows(sql).get(0);
    List<String> wrong = new ArrayList<>();
    for (String executor : EXECUTORS) {
      FlightTestClient client = clients.get(executor);
      try {
        Result result = run(client, sql);
        List<ArrowType> types = result.schema.getFields().stream().map(Field::getType).toList();
        ArrowType dbl = new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE);
        List<ArrowType> wanted = List.of(dbl, dbl, new ArrowType.Int(64, true), new ArrowType.Int(64, true),
            new ArrowType.Int(32, true), new ArrowType.Int(64, true), new ArrowType.Int(64, true));
        if (!types.equals(wanted)) {
          wrong.add(executor + ": types " + types + ", expected " + wanted);
        }
        List<Object> row = result.rows.get(0);
        for (int c = 0; c < row.size(); c++) {
          double mine = ((Number) row.get(c)).doubleValue();
          double theirs = ((Number) reference.get(c)).doubleValue();
          if (mine != theirs) {
            wrong.add(executor + ": column " + c + " = " + row.get(c) + ", DuckDB " + reference.get(c));
          }
        }
      } catch (RuntimeException e) {
        wrong.add(executor + ": " + sql + " failed: " + e);
      }
      for (String overflow : List.of("SELECT SUM(huge) FROM integers", "SELECT id, SUM(huge) FROM integers"
          + " GROUP BY id HAVING SUM(huge) > 0 UNION ALL SELECT -1, SUM(huge) FROM integers")) {
        try {
          Result result = run(client, overflow);
          wrong.add(executor + ": " + overflow + " answered " + result.rows + " instead of an overflow error");
        } catch (FlightRuntimeException e) {
          if (e.status().code() != FlightStatusCode.INVALID_ARGUMENT
              || !e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("overflow")) {
            wrong.add(executor + ": " + overflow + " failed with " + e.status().code() + ": " + e.getMessage());
          }
        }
      }
    }
    // DuckDB sums BIGINT into a 128-bit integer: the exact answer lake refuses to wrap.
    assertThat(new BigInteger(duckDb.rows("SELECT SUM(huge) FROM integers").get(0).get(0).toString()))
        .isEqualTo(BigInteger.valueOf(Long.MAX_VALUE).multiply(BigInteger.TEN).subtract(BigInteger.valueOf(45)));
    assertThat(wrong).as("aggregate types and overflow").isEmpty();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Reading results

  /** A result: its schema, rows with temporal values as raw longs, decimals as BigDecimal, strings as String. */
  private record Result(Schema schema, List<List<Object>> rows, List<List<Object>> raw) {
    /** Every temporal column is in microseconds or finer (never milliseconds claiming microseconds). */
    void requireFineUnits() {
      for (Field field : schema.getFields()) {
        TimeUnit unit = field.getType() instanceof ArrowType.Timestamp
            ? ((ArrowType.Timestamp) field.getType()).getUnit()
            : field.getType() instanceof ArrowType.Time ? ((ArrowType.Time) field.getType()).getUnit() : null;
        assertThat(unit).as("unit of %s", field).isIn(null, TimeUnit.MICROSECOND);
      }
    }
  }

  private static Result run(FlightTestClient client, String sql) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    List<List<Object>> raw = new ArrayList<>();
    Schema[] schema = new Schema[1];
    client.query(sql, root -> {
      schema[0] = root.getSchema();
      collect(root, rows, raw);
    });
    if (schema[0] == null) {
      FlightInfo info = client.sql().execute(sql, client.auth());
      schema[0] = info.getSchemaOptional().orElseThrow();
    }
    return new Result(schema[0], rows, raw);
  }

  private static void collect(VectorSchemaRoot root, List<List<Object>> rows, List<List<Object>> raw) {
    for (int r = 0; r < root.getRowCount(); r++) {
      List<Object> row = new ArrayList<>();
      List<Object> rawRow = new ArrayList<>();
      for (FieldVector vector : root.getFieldVectors()) {
        Object value = vector.isNull(r) ? null : vector.getObject(r);
        if (value != null && (vector instanceof TimeStampVector || vector instanceof TimeMicroVector
            || vector instanceof TimeNanoVector)) {
          long stored = vector instanceof TimeStampVector ? ((TimeStampVector) vector).get(r)
              : vector instanceof TimeMicroVector ? ((TimeMicroVector) vector).get(r) : ((TimeNanoVector) vector).get(r);
          rawRow.add(stored);
          value = stored;
        } else if (value instanceof TimeMilliVector || vector instanceof TimeMilliVector) {
          value = value == null ? null : (long) ((TimeMilliVector) vector).get(r);
          rawRow.add(value);
        } else {
          if (value instanceof Text) {
            value = value.toString();
          }
          rawRow.add(value);
        }
        row.add(value);
      }
      rows.add(row);
      raw.add(rawRow);
    }
  }

  /** Runs a prepared statement with TIMESTAMP(6) parameters (all bound to {@code micros}). */
  private static List<List<Object>> prepared(FlightTestClient client, String sql, long micros) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    FlightSqlClient.PreparedStatement statement = client.sql().prepare(sql, client.auth());
    try {
      Schema parameters = statement.getParameterSchema();
      try (VectorSchemaRoot bound = VectorSchemaRoot.create(
          new Schema(parameters.getFields().stream().map(f -> Field.nullable(f.getName(),
              new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))).toList()), client.allocator())) {
        bound.allocateNew();
        for (FieldVector vector : bound.getFieldVectors()) {
          ((TimeStampMicroVector) vector).setSafe(0, micros);
        }
        bound.setRowCount(1);
        statement.setParameters(bound);
        FlightInfo info = statement.execute(client.auth());
        for (FlightEndpoint endpoint : info.getEndpoints()) {
          try (FlightStream stream = client.sql().getStream(endpoint.getTicket(), client.auth())) {
            while (stream.next()) {
              collect(stream.getRoot(), rows, new ArrayList<>());
            }
          }
        }
      }
    } finally {
      statement.close(client.auth());
    }
    return rows;
  }
}
