package dev.lake.it.tpch;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.registry.TableRegistration;
import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * {@code bin/lake bench tpch --sf 1}: TPC-H through a real lake server against DuckDB on the same data, in the same
 * run. Generates the tables, loads them into lake through Flight bulk ingest (timed against a direct Lance write of
 * the same batches) and into DuckDB from the same batches, and has DuckDB write them as Parquet files (COPY). Then
 * restarts the lake server over the loaded data and runs each query once (the cold column, next to DuckDB's first run
 * over the Parquet files in a fresh connection); then runs the 22 queries interleaved — DuckDB in memory, DuckDB over
 * the Parquet files, lake through the JDBC driver, lake through FlightSqlClient (and Lance's own SQL for queries lake
 * pushes down whole) — a warm-up then medians of {@code --runs}, each run capped at {@code --cap-seconds} — after
 * checking each answer against DuckDB's, decimals correctly rounded at their declared scale ({@link Answers}); then
 * ingests a small batch into lineitem and runs each query once more (the after-append column). Also measures
 * SELECT * through FlightSqlClient against a raw Lance scan and the warm time to the first batch. Prints the figures
 * and writes them to {@code --out} (default {@code verification/bench-tpch.md}), with {@code uptime} at the start
 * and end and the process's peak RSS.
 *
 * <p>Options: {@code --sf} scale factor (default 1), {@code --runs} (5), {@code --cap-seconds} (60),
 * {@code --duckdb-threads} (2), {@code --duckdb-memory} (DuckDB's default), {@code --batch-rows} (65536), {@code --work} (a fresh directory under
 * {@code target/bench}), {@code --out}.
 */
public final class TpchBenchmark {
  /** The after-append column's ingest: lineitem at this scale factor (about 6,000 rows). */
  private static final double APPEND_SCALE = 0.001;
  private static final Pattern LANCE_SQL = Pattern.compile("LanceSqlScan\\(table=\\[(\\w+)\\].*sql=\\[(.*)\\]\\)");

  private final BenchmarkOptions options;
  private final BenchmarkReport report;

  /** Queries that failed once: not run again in later phases. */
  private final java.util.Set<Integer> failed = new java.util.TreeSet<>();

  private TpchBenchmark(BenchmarkOptions options) {
    this.options = options;
    this.report = new BenchmarkReport(options);
  }

  public static void main(String[] args) throws Exception {
    BenchmarkOptions options = BenchmarkOptions.parse(args);
    new TpchBenchmark(options).run();
    // The Flight and DuckDB clients leave non-daemon threads behind; the figures are written.
    System.exit(0);
  }

  private void run() throws Exception {
    Files.createDirectories(options.work());
    report.uptime(true);
    Path lakeData = options.work().resolve("lake");
    Path parquet = Files.createDirectories(options.work().resolve("parquet"));
    List<String> tables = TpchTable.getTables().stream().map(TpchTable::getTableName).toList();
    try (BufferAllocator allocator = new RootAllocator();
        DuckDbReference duckDb = DuckDbReference.open(options.duckDbThreads(), options.duckDbMemory(), duckDbTemp())) {
      try (LakeTestServer server = asShipped(lakeData); FlightTestClient client = server.client()) {
        load(allocator, server, client, duckDb);
      }
      long exported = BenchClock.time(() -> {
        for (String table : tables) {
          duckDb.exportParquet(parquet, table);
        }
        return null;
      });
      BenchmarkReport.log("DuckDB wrote the tables as Parquet in " + exported / 1_000_000 + " ms");
      // A freshly started server over the loaded data (same JVM; lake's and Lance's state is cold), started as
      // shipped: start() returns after its start-up warm-up (docs/operations.md, "Start-up and readiness").
      try (LakeTestServer server = asShipped(lakeData); FlightTestClient client = server.client();
          Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
        cold(jdbc, parquet, tables);
        try (DuckDbReference onParquet = DuckDbReference.overParquet(options.duckDbThreads(), options.duckDbMemory(), duckDbTemp(),
            parquet, tables)) {
          queries(allocator, server, client, duckDb, onParquet, jdbc);
        }
        afterAppend(allocator, client, jdbc, duckDb);
        if (!options.skipsLoadMeasures()) {
          selectStar(allocator, server, client);
        }
      }
    }
    report.uptime(false);
    report.write();
  }

  /** Where DuckDB pages what does not fit its {@code --duckdb-memory}. */
  private java.nio.file.Path duckDbTemp() {
    return options.work().resolve("duckdb-tmp");
  }

  /**
   * A server with the shipped start-up warm-up and background statistics analysis (test servers turn both off);
   * {@code -Dlake.bench.warmup-rows=N} (e.g. in LAKE_JAVA_OPTS) sets {@code query.warmup-rows} instead, 0 to compare
   * without, and {@code -Dlake.bench.auto-analyze=false} turns {@code query.auto-analyze} off.
   */
  private static LakeTestServer asShipped(Path dataDir) throws Exception {
    return LakeTestServer.start(dataDir, b -> { }, Map.of("query.warmup-rows", String.valueOf(
        Integer.getInteger("lake.bench.warmup-rows", dev.lake.flight.config.LakeConfig.DEFAULT_WARMUP_ROWS)),
        "query.auto-analyze", System.getProperty("lake.bench.auto-analyze", "true")));
  }

  /**
   * Each query's first run on a freshly started server (dataset opens, statistics, an empty column cache), next to
   * DuckDB's first run over the Parquet files in a fresh connection.
   */
  private void cold(Connection jdbc, Path parquet, List<String> tables) throws Exception {
    try (DuckDbReference coldDuck = DuckDbReference.overParquet(options.duckDbThreads(), options.duckDbMemory(), duckDbTemp(),
            parquet, tables)) {
      for (int query : options.queries()) {
        String sql = TpchQueries.sql(query);
        long lake;
        try {
          lake = BenchClock.time(() -> jdbcDrain(jdbc, sql));
        } catch (java.sql.SQLException e) {
          report.failed(query, "cold", e);
          failed.add(query);
          continue;
        }
        long duck = BenchClock.time(() -> coldDuck.drain(sql));
        report.cold(query, lake, duck);
        BenchmarkReport.log("cold Q" + query + " lake " + lake / 1_000_000 + " ms, DuckDB Parquet "
            + duck / 1_000_000 + " ms");
      }
    }
  }

  /**
   * A small ingest into lineitem (a new version), then each query's first run, compared with the warm runs; the same
   * rows are appended to DuckDB's in-memory lineitem and each query's answer after the append (a second run) is
   * checked against DuckDB's.
   */
  private void afterAppend(BufferAllocator allocator, FlightTestClient client, Connection jdbc,
      DuckDbReference duckDb) throws Exception {
    long appended = client.ingest("lineitem", TpchArrow.reader(TpchTable.LINE_ITEM, APPEND_SCALE,
        options.batchRows(), allocator), FlightTestClient.append(), Map.of());
    duckDb.append("lineitem", TpchArrow.reader(TpchTable.LINE_ITEM, APPEND_SCALE, options.batchRows(), allocator),
        allocator);
    report.appended(appended);
    BenchmarkReport.log("appended " + appended + " rows to lineitem");
    for (int query : options.queries()) {
      String sql = TpchQueries.sql(query);
      if (failed.contains(query)) {
        continue;
      }
      long first;
      try {
        first = BenchClock.time(() -> jdbcDrain(jdbc, sql));
      } catch (java.sql.SQLException e) {
        report.failed(query, "after append", e);
        continue;
      }
      report.afterAppend(query, first);
      BenchmarkReport.log("after append Q" + query + " " + first / 1_000_000 + " ms");
      report.appendAnswer(query, Answers.difference(jdbcRows(jdbc, sql), duckDb.rows(sql),
          TpchQueries.orderBy(query)));
    }
  }

  private void load(BufferAllocator allocator, LakeTestServer server, FlightTestClient client, DuckDbReference duckDb)
      throws Exception {
    for (TpchTable<?> table : TpchTable.getTables()) {
      if (options.streamed()) {
        loadStreamed(allocator, client, duckDb, table);
      } else {
        loadRecorded(allocator, client, duckDb, table);
      }
    }
  }

  /** Generates the table twice, once into lake's Flight ingest and once into DuckDB: nothing is held in memory. */
  private void loadStreamed(BufferAllocator allocator, FlightTestClient client, DuckDbReference duckDb,
      TpchTable<?> table) throws Exception {
    String name = table.getTableName();
    long[] rows = new long[1];
    long ingest = BenchClock.time(() -> rows[0] = IngestBenchmark.ingest(client, name, TpchArrow.reader(table,
        options.scale(), options.batchRows(), allocator)));
    long duck = BenchClock.time(() -> {
      duckDb.load(name, TpchArrow.reader(table, options.scale(), options.batchRows(), allocator), allocator);
      return null;
    });
    report.streamedTable(name, rows[0], ingest, duck);
    BenchmarkReport.log("loaded " + name + " rows=" + rows[0] + ": generated and ingested into lake in "
        + ingest / 1_000_000 + " ms, generated and loaded into DuckDB in " + duck / 1_000_000 + " ms");
  }

  private void loadRecorded(BufferAllocator allocator, FlightTestClient client, DuckDbReference duckDb,
      TpchTable<?> table) throws Exception {
    String name = table.getTableName();
    long start = System.nanoTime();
    try (RecordedBatches batches = RecordedBatches.record(
        TpchArrow.reader(table, options.scale(), options.batchRows(), allocator))) {
      long generated = System.nanoTime() - start;
      int rounds = options.partial() ? 0 : name.equals("lineitem") ? 2 : 1;
      if (options.partial()) {
        client.ingest(name, batches.reader(allocator), FlightTestClient.create(), Map.of());
      }
      Samples direct = new Samples();
      Samples ingest = new Samples();
      for (int round = 0; round < rounds; round++) {
        String uri = options.work().resolve("direct").resolve(name + "-" + round).toString();
        direct.add(BenchClock.time(() -> LanceDirect.write(uri, batches.reader(allocator), allocator)));
        String target = round == 0 ? name : name + "_again";
        ingest.add(BenchClock.time(() -> IngestBenchmark.ingest(client, target, batches.reader(allocator))));
      }
      long duck = BenchClock.time(() -> {
        duckDb.load(name, batches.reader(allocator), allocator);
        return null;
      });
      if (!options.partial()) {
        report.table(name, batches.rows(), generated, direct, ingest, duck);
      }
      BenchmarkReport.log("loaded " + name + " rows=" + batches.rows());
    }
  }

  private void queries(BufferAllocator allocator, LakeTestServer server, FlightTestClient client,
      DuckDbReference duckDb, DuckDbReference onParquet, Connection jdbc) throws Exception {
    long cap = options.capSeconds() * 1_000_000_000L;
    for (int query : options.queries()) {
      String sql = TpchQueries.sql(query);
      if (failed.contains(query)) {
        continue;
      }
      try {
        report.answer(query, Answers.difference(jdbcRows(jdbc, sql), duckDb.rows(sql), TpchQueries.orderBy(query)));
      } catch (java.sql.SQLException e) {
        report.failed(query, "warm", e);
        failed.add(query);
        continue;
      }
      long planStart = System.nanoTime();
      String plan = explain(jdbc, sql);
      long firstPlanning = System.nanoTime() - planStart;
      Samples planning = new Samples();
      for (int i = 0; i < 3; i++) {
        planning.add(BenchClock.time(() -> explain(jdbc, sql)));
      }
      // A whole statement in one single-table node (vectorized or Lance SQL): Lance's own SQL runs its statement too.
      Matcher pushed = plan.startsWith("lance-sql") || plan.startsWith("vectorized") ? LANCE_SQL.matcher(plan) : null;
      TableRegistration table = pushed != null && pushed.find()
          ? server.server().metaStore().get(pushed.group(1)).orElseThrow() : null;
      String lanceSql = table == null ? null : pushed.group(2);

      List<BenchClock.Timed> engines = new ArrayList<>();
      engines.add(new BenchClock.Timed("duckdb", () -> duckDb.drain(sql)));
      engines.add(new BenchClock.Timed("duckdb-parquet", () -> onParquet.drain(sql)));
      engines.add(new BenchClock.Timed("lake-jdbc", () -> jdbcDrain(jdbc, sql)));
      engines.add(new BenchClock.Timed("lake-flight", () -> flightDrain(client, sql)));
      if (lanceSql != null) {
        engines.add(new BenchClock.Timed("lance-sql", () -> LanceDirect.sql(table.location(), table.version(),
            "lake_table", lanceSql, allocator)));
      }
      List<Samples> samples = BenchClock.interleave(engines, options.runs(), cap);
      report.query(query, firstPlanning, planning.median(), plan.lines().findFirst().orElse(""), samples,
          lanceSql != null);
      BenchmarkReport.log("Q" + query + " " + report.lastQueryLine());
    }
  }

  private static List<List<Object>> jdbcRows(Connection jdbc, String sql) throws Exception {
    try (java.sql.Statement statement = jdbc.createStatement(); java.sql.ResultSet result = statement.executeQuery(sql)) {
      return DuckDbReference.JdbcRows.read(result);
    }
  }

  private void selectStar(BufferAllocator allocator, LakeTestServer server, FlightTestClient client)
      throws Exception {
    TableRegistration lineitem = server.server().metaStore().get("lineitem").orElseThrow();
    String sql = "SELECT * FROM lineitem";
    List<BenchClock.Timed> engines = List.of(
        new BenchClock.Timed("lake-flight", () -> flightDrain(client, sql)),
        new BenchClock.Timed("lance-scan", () -> LanceDirect.scanAll(lineitem.location(), lineitem.version(),
            options.batchRows(), allocator)));
    List<Samples> scans = BenchClock.interleave(engines, 3, options.capSeconds() * 1_000_000_000L);
    Samples firstBatch = new Samples();
    firstBatch(client, sql);
    for (int i = 0; i < 5; i++) {
      firstBatch.add(firstBatch(client, sql));
    }
    report.scan(countRows(client, "lineitem"), scans.get(0), scans.get(1), firstBatch);
  }

  private static long countRows(FlightTestClient client, String table) throws Exception {
    return client.count(table);
  }

  /** Nanoseconds from asking for the statement until its first batch arrived (the rest is cancelled). */
  private static long firstBatch(FlightTestClient client, String sql) throws Exception {
    long start = System.nanoTime();
    FlightInfo info = client.sql().execute(sql, client.auth());
    try (FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
      if (!stream.next()) {
        throw new IllegalStateException("no batch for " + sql);
      }
      long elapsed = System.nanoTime() - start;
      stream.cancel("first batch measured", null);
      return elapsed;
    }
  }

  static long jdbcDrain(Connection jdbc, String sql) throws Exception {
    try (Statement statement = jdbc.createStatement(); ResultSet result = statement.executeQuery(sql)) {
      return DuckDbReference.JdbcRows.drain(result);
    }
  }

  static long flightDrain(FlightTestClient client, String sql) throws Exception {
    long rows = 0;
    FlightInfo info = client.sql().execute(sql, client.auth());
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      try (FlightStream stream = client.sql().getStream(endpoint.getTicket(), client.auth())) {
        while (stream.next()) {
          rows += stream.getRoot().getRowCount();
        }
      }
    }
    return rows;
  }

  static String explain(Connection jdbc, String sql) throws Exception {
    try (Statement statement = jdbc.createStatement();
        ResultSet result = statement.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      StringBuilder text = new StringBuilder();
      while (result.next()) {
        text.append(result.getString(1)).append('\n');
      }
      return text.toString();
    }
  }

  /** Where a relative path is resolved: the project root (bin/lake runs from there). */
  static Path projectRoot() {
    return Path.of(System.getProperty("lake.project.root", ".")).toAbsolutePath().normalize();
  }
}
