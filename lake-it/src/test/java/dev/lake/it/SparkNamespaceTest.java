package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.flight.demo.TpchBatches;
import dev.lake.it.support.AllTypes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.NamespaceClient;
import dev.lake.it.support.SparkSql;
import dev.lake.metasrv.IngestRequest;
import dev.lake.registry.TableRegistration;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Apache Spark reads lake's tables through lake's Lance REST Namespace with lance-spark's
 * {@code LanceNamespaceSparkCatalog} (docs/operations.md, "When one node is not enough"). One lake node and one Spark
 * {@code local[2]} session (a child JVM) serve the whole class; each test uses its own tables.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkNamespaceTest {
  private Path work;
  private LakeTestServer server;
  private FlightTestClient client;
  private SparkSql spark;
  private String token;
  private final dev.lake.it.support.MutableClock clock = new dev.lake.it.support.MutableClock(
      java.time.Instant.now());

  @BeforeAll
  void start() throws Exception {
    work = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "spark-ns");
    server = LakeTestServer.start(work.resolve("lake"), b -> b.clock(clock),
        Map.of("namespace.enabled", "true", "namespace.port", "0", "retention.window", "1ms"));
    client = server.client();
    token = NamespaceClient.bearer(server.port(), "lake", "lake");
    spark = SparkSql.start(work, catalog("lake", Optional.empty()));
  }

  Map<String, String> catalog(String name, Optional<String> pin) {
    String p = "spark.sql.catalog." + name;
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put(p, "org.lance.spark.LanceNamespaceSparkCatalog");
    conf.put(p + ".impl", "rest");
    conf.put(p + ".uri", "http://127.0.0.1:" + server.server().namespacePort().orElseThrow());
    conf.put(p + ".header.Authorization", token);
    pin.ifPresent(id -> conf.put(p + ".header.x-lake-pin", id));
    return conf;
  }

  @AfterAll
  void stop() throws Exception {
    if (spark != null) {
      Files.write(work.resolve("transcript.txt"), spark.transcript());
      System.out.println("Spark transcript: " + work.resolve("transcript.txt"));
      spark.close();
    }
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private void loadTpch(String name, TpchTable<?> table, double scale) {
    server.server().ingest(new IngestRequest(name, IngestRequest.IfMissing.CREATE, IngestRequest.IfExists.FAIL,
        Optional.empty()), allocator -> TpchBatches.reader(table, scale, 16_384, allocator));
  }

  /** Commits TPC-H rows straight to a table's Lance directory: a newer, unregistered data version. */
  private static long foreignTpchCommit(String location, TpchTable<?> table, double scale) throws Exception {
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine foreign = new LanceTableEngine(allocator, Map.of());
        ArrowReader reader = TpchBatches.reader(table, scale, 16_384, allocator)) {
      StagedData staged = foreign.stage(location, reader);
      return foreign.commit(location, foreign.latestVersion(location), new TableChange.Append(staged));
    }
  }

  private static long foreignSparkTypesCommit(String location) throws Exception {
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine foreign = new LanceTableEngine(allocator, Map.of())) {
      VectorSchemaRoot rows = AllTypes.batch(allocator, 500, 4);
      int time = rows.getSchema().getFields().indexOf(rows.getSchema().findField("c_time"));
      org.apache.arrow.vector.FieldVector timeVector = rows.getVector(time);
      try (VectorSchemaRoot noTime = rows.removeVector(time);
          ArrowReader reader = dev.lake.it.support.ArrowStreams.of(allocator, noTime)) {
        timeVector.close();
        StagedData staged = foreign.stage(location, reader);
        return foreign.commit(location, foreign.latestVersion(location), new TableChange.Append(staged));
      }
    }
  }

  private SparkSql.Answer spark(String sql) throws Exception {
    SparkSql.Answer a = spark.sql(sql);
    assertThat(a.error()).as(sql).isNull();
    return a;
  }

  /** lake's own answer through Flight SQL, each value printed as Spark's runner prints it. */
  private List<List<String>> lake(String sql) throws Exception {
    List<List<String>> out = new ArrayList<>();
    client.query(sql, root -> {
      for (int r = 0; r < root.getRowCount(); r++) {
        List<String> row = new ArrayList<>();
        for (org.apache.arrow.vector.FieldVector v : root.getFieldVectors()) {
          row.add(canonical(sparkForm(v, r)));
        }
        out.add(row);
      }
    });
    return out;
  }

  /** The Java value Spark (java8API, UTC session) hands back for the same Arrow value. */
  static Object sparkForm(org.apache.arrow.vector.FieldVector v, int r) {
    if (v.isNull(r)) {
      return null;
    }
    if (v instanceof org.apache.arrow.vector.DateDayVector d) {
      return java.time.LocalDate.ofEpochDay(d.get(r));
    }
    if (v instanceof org.apache.arrow.vector.TimeStampMicroTZVector t) {
      return java.time.Instant.EPOCH.plus(t.get(r), java.time.temporal.ChronoUnit.MICROS);
    }
    if (v instanceof org.apache.arrow.vector.TimeStampMicroVector t) {
      return java.time.LocalDateTime.ofEpochSecond(0, 0, java.time.ZoneOffset.UTC)
          .plus(t.get(r), java.time.temporal.ChronoUnit.MICROS);
    }
    if (v instanceof org.apache.arrow.vector.VarCharVector s) {
      return new String(s.get(r), java.nio.charset.StandardCharsets.UTF_8);
    }
    return v.getObject(r);
  }

  /** A value as both sides print it; numbers compared by value (1536127.00 = 1536127.0). */
  static String canonical(Object v) {
    if (v == null || "NULL".equals(v)) {
      return "NULL";
    }
    String s = v instanceof byte[] b ? hex(b) : String.valueOf(v);
    try {
      return new BigDecimal(s).stripTrailingZeros().toPlainString();
    } catch (NumberFormatException e) {
      return s;
    }
  }

  static String hex(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    for (byte b : bytes) {
      out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return out.toString();
  }

  static List<List<String>> canonical(List<List<String>> rows) {
    return rows.stream().map(r -> r.stream().map(SparkNamespaceTest::canonical).toList()).toList();
  }

  @Test
  void sparkReadsRegisteredSnapshot() throws Exception {
    loadTpch("lineitem", TpchTable.LINE_ITEM, 0.01);
    ingestSparkTypes(0, 12, FlightTestClient.create());
    ingestSparkTypes(12, 6, FlightTestClient.append());
    TableRegistration lineitem = server.server().metaStore().get("lineitem").orElseThrow();
    TableRegistration allTypes = server.server().metaStore().get("spark_types").orElseThrow();
    assertThat(foreignTpchCommit(lineitem.location(), TpchTable.LINE_ITEM, 0.001)).isEqualTo(lineitem.version() + 1);
    assertThat(foreignSparkTypesCommit(allTypes.location())).isEqualTo(allTypes.version() + 1);

    String count = "SELECT count(*) FROM %s";
    assertThat(canonical(spark(count.formatted("lake.main.lineitem")).rows()))
        .isEqualTo(lake(count.formatted("lineitem")));
    // lance-spark 0.4.0 pushes a DATE literal down as a bare 1994-01-01, which Lance rejects: compare dates as
    // text on the Spark side (docs/operations.md)
    String filter = "SELECT count(*), sum(l_quantity) FROM %s WHERE %s >= '1994-01-01' "
        + "AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24";
    assertThat(canonical(spark(filter.formatted("lake.main.lineitem", "CAST(l_shipdate AS STRING)")).rows()))
        .isEqualTo(lake(filter.formatted("lineitem", "CAST(l_shipdate AS VARCHAR)")));
    String aggregate = "SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), sum(l_extendedprice), "
        + "min(l_shipdate), max(l_comment) FROM %s WHERE %s <= '1998-09-02' "
        + "GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus";
    assertThat(canonical(spark(aggregate.formatted("lake.main.lineitem", "CAST(l_shipdate AS STRING)")).rows()))
        .isEqualTo(lake(aggregate.formatted("lineitem", "CAST(l_shipdate AS VARCHAR)")));

    // every type Spark has (all of lake's but TIME), NULLs and edge values, exactly as lake answers them
    // (no ORDER BY: lake then streams the stored batches unchanged, microseconds included; sorted here by id)
    String all = "SELECT * FROM %s";
    List<List<String>> sparkRows = byId(canonical(spark(all.formatted("lake.main.spark_types")).rows()));
    assertThat(sparkRows).hasSize(18).isEqualTo(byId(lake(all.formatted("spark_types"))));
    // an older registered version
    assertThat(spark("SELECT count(*), max(id) FROM lake.main.spark_types VERSION AS OF 1").rows())
        .containsExactly(List.of("12", "11"));
    SparkSql.Answer unregistered = spark.sql("SELECT count(*) FROM lake.main.spark_types VERSION AS OF 3");
    System.out.println("unregistered: " + unregistered);
    assertThat(unregistered.error()).as("VERSION AS OF an unregistered version fails").isNotNull();
  }

  static List<List<String>> byId(List<List<String>> rows) {
    return rows.stream().sorted(java.util.Comparator.comparingLong(r -> Long.parseLong(r.get(0)))).toList();
  }

  /** AllTypes without its TIME column (Spark has no TIME type; lance-spark refuses the table with one). */
  private void ingestSparkTypes(int first, int count,
      org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions mode) {
    VectorSchemaRoot rows = AllTypes.batch(client.allocator(), first, count);
    int time = rows.getSchema().getFields().indexOf(rows.getSchema().findField("c_time"));
    org.apache.arrow.vector.FieldVector timeVector = rows.getVector(time);
    try (VectorSchemaRoot noTime = rows.removeVector(time)) {
      timeVector.close();
      client.ingest("spark_types", noTime, mode);
    }
  }

  @Test
  void pinnedSnapshotIsConsistentAcrossTables() throws Exception {
    loadTpch("p_orders", TpchTable.ORDERS, 0.01);
    loadTpch("p_customer", TpchTable.CUSTOMER, 0.01);
    String join = "SELECT count(*), sum(o.o_totalprice), count(DISTINCT c.c_custkey) FROM %s o JOIN %s c "
        + "ON o.o_custkey = c.c_custkey";
    List<List<String>> atPin = lake(join.formatted("p_orders", "p_customer"));
    JsonNodeAnswer pin = pin(List.of("p_orders", "p_customer"), "1h");
    // both tables move on after the pin: new registered versions, with rows that join
    loadMore("p_orders", TpchTable.ORDERS);
    loadMore("p_customer", TpchTable.CUSTOMER);
    assertThat(lake(join.formatted("p_orders", "p_customer"))).isNotEqualTo(atPin);
    // retention with a 1 ms window right now: without the pin the pinned versions would be cleaned up
    server.server().maintenance().maintain("p_orders");
    server.server().maintenance().maintain("p_customer");

    Map<String, String> pinned = catalog("pinned", Optional.of(pin.id()));
    for (Map.Entry<String, String> e : pinned.entrySet()) {
      spark("SET `" + e.getKey() + "`=`" + e.getValue() + "`");
    }
    assertThat(canonical(spark(join.formatted("pinned.main.p_orders", "pinned.main.p_customer")).rows()))
        .isEqualTo(atPin);
    // without the pin Spark reads the registered versions now
    assertThat(canonical(spark(join.formatted("lake.main.p_orders", "lake.main.p_customer")).rows()))
        .isEqualTo(lake(join.formatted("p_orders", "p_customer")));
    // the pinned versions are still on storage and listed, past the 1 ms window, until the pin expires
    NamespaceClient http = new NamespaceClient(server.server().namespacePort().orElseThrow());
    var versions = http.call("POST", "/v1/table/main$p_orders/version/list", "{}", token);
    assertThat(LanceNamespaceTest.versions(versions.body())).contains(pin.version("p_orders"));
    var describe = http.call("POST", "/v1/table/main$p_orders/describe", "{}",
        Map.of("Authorization", token, "x-lake-pin", pin.id()));
    assertThat(describe.body().path("version").asLong()).isEqualTo(pin.version("p_orders"));
    assertThat(pin.version("p_orders")).isLessThan(server.server().metaStore().get("p_orders").orElseThrow()
        .version());

    // once the pin expires, retention removes what it held, and the pin answers that it is gone
    clock.advance(java.time.Duration.ofHours(2));
    server.server().maintenance().maintain("p_orders");
    // (the registry's history; the namespace's listing follows within the catalog's TTL)
    TableRegistration orders = server.server().metaStore().get("p_orders").orElseThrow();
    assertThat(server.server().metaStore().history("p_orders", orders.generation()))
        .extracting(dev.lake.registry.VersionRecord::version).doesNotContain(pin.version("p_orders"));
    var expired = http.call("POST", "/v1/table/main$p_orders/describe", "{}",
        Map.of("Authorization", token, "x-lake-pin", pin.id()));
    assertThat(expired.status()).isEqualTo(400);
    assertThat(expired.body().path("error").asText()).contains("unknown or expired");
    assertThat(server.server().metaStore().pin(pin.id())).isEmpty();

    // a dropped table's pin answers TableNotFound
    JsonNodeAnswer second = pin(List.of("p_customer"), "30m");
    dev.lake.it.support.AdminClient.drop(client, "p_customer");
    var dropped = http.call("POST", "/v1/table/main$p_customer/describe", "{}",
        Map.of("Authorization", token, "x-lake-pin", second.id()));
    assertThat(dropped.status()).isEqualTo(404);
    assertThat(dropped.body().path("code").asInt()).isEqualTo(4);
  }

  /**
   * Writes from Spark through lake's read-only catalog ({@code dev.lake.spark.LakeCatalog}, docs/operations.md) fail
   * at once with lake's message and change nothing: the same registration, the same files in the table's directory
   * (no new Lance version, no staged data file), the same answers. (Through lance-spark's plain
   * {@code LanceNamespaceSparkCatalog} an INSERT is not refused cleanly: lance-spark retries the namespace's refused
   * commit with a growing back-off, see docs/operations.md.)
   */
  @Test
  void sparkWritesAreRefusedCleanly() throws Exception {
    loadTpch("w_region", TpchTable.REGION, 1);
    for (Map.Entry<String, String> e : readOnlyCatalog("lakero").entrySet()) {
      spark("SET `" + e.getKey() + "`=`" + e.getValue() + "`");
    }
    TableRegistration before = server.server().metaStore().get("w_region").orElseThrow();
    Map<String, Long> filesBefore = files(Path.of(before.location()));
    assertThat(spark("SELECT count(*), sum(r_regionkey) FROM lakero.main.w_region").rows())
        .containsExactly(List.of("5", "10"));

    List<String> writes = List.of(
        "INSERT INTO lakero.main.w_region VALUES (9, 'X', 'y')",
        "INSERT INTO lakero.main.w_region SELECT * FROM lakero.main.w_region",
        "INSERT OVERWRITE lakero.main.w_region SELECT * FROM lakero.main.w_region WHERE r_regionkey < 2",
        "DELETE FROM lakero.main.w_region WHERE r_regionkey = 1",
        "UPDATE lakero.main.w_region SET r_name = 'Z' WHERE r_regionkey = 1",
        "TRUNCATE TABLE lakero.main.w_region",
        "CREATE TABLE lakero.main.w_copy AS SELECT * FROM lakero.main.w_region",
        "DROP TABLE lakero.main.w_region");
    for (String write : writes) {
      SparkSql.Answer refused = spark.sql(write);
      assertThat(refused.error()).as(write).isNotNull()
          .contains("lake's Lance namespace is read-only: writes go through Flight SQL ingest");
    }

    TableRegistration after = server.server().metaStore().get("w_region").orElseThrow();
    assertThat(after.version()).isEqualTo(before.version());
    assertThat(after.generation()).isEqualTo(before.generation());
    assertThat(after.location()).isEqualTo(before.location());
    assertThat(server.server().metaStore().get("w_copy")).isEmpty();
    assertThat(files(Path.of(before.location()))).as("the table's directory")
        .isEqualTo(filesBefore);
    assertThat(spark("SELECT count(*), sum(r_regionkey) FROM lakero.main.w_region").rows())
        .containsExactly(List.of("5", "10"));
    assertThat(lake("SELECT count(*), sum(r_regionkey) FROM w_region")).containsExactly(List.of("5", "10"));
  }

  /** lake's read-only catalog on the same endpoint (lake-it/spark-reader's {@code dev.lake.spark.LakeCatalog}). */
  Map<String, String> readOnlyCatalog(String name) {
    Map<String, String> conf = new LinkedHashMap<>();
    catalog(name, Optional.empty()).forEach((k, v) -> conf.put(k, k.equals("spark.sql.catalog." + name)
        ? "dev.lake.spark.LakeCatalog" : v));
    return conf;
  }

  /** Every file under a table's directory, with its size. */
  static Map<String, Long> files(Path dir) throws java.io.IOException {
    Map<String, Long> out = new java.util.TreeMap<>();
    try (var walk = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
        out.put(dir.relativize(f).toString(), Files.size(f));
      }
    }
    return out;
  }

  /** The answer of {@code lake.pin_snapshot}. */
  record JsonNodeAnswer(com.fasterxml.jackson.databind.JsonNode body) {
    String id() {
      return body.path("pin").asText();
    }

    long version(String table) {
      for (var t : body.path("tables")) {
        if (t.path("table").asText().equals(table)) {
          return t.path("version").asLong();
        }
      }
      throw new IllegalArgumentException(table + " is not pinned");
    }
  }

  private JsonNodeAnswer pin(List<String> tables, String ttl) {
    String body = "{\"tables\": [" + String.join(", ", tables.stream().map(t -> "\"" + t + "\"").toList())
        + "], \"ttl\": \"" + ttl + "\"}";
    return new JsonNodeAnswer(dev.lake.it.support.AdminClient.action(client, "lake.pin_snapshot", body));
  }

  private void loadMore(String name, TpchTable<?> table) {
    server.server().ingest(new IngestRequest(name, IngestRequest.IfMissing.FAIL, IngestRequest.IfExists.APPEND,
        Optional.empty()), allocator -> TpchBatches.reader(table, 0.002, 16_384, allocator));
  }
}
