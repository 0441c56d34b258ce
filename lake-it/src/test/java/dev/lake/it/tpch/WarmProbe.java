package dev.lake.it.tpch;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A quick look at warm runs without the whole benchmark (and a target for a profiler): loads TPC-H at {@code --sf}
 * into {@code --work}/lake once (kept between runs), starts one server over it (the shipped start-up warm-up), and
 * for each of {@code --queries} runs one warm-up and then {@code --runs} timed runs through JDBC, printing the
 * median, the minimum and the median of {@code --runs} EXPLAINs (planning plus the round trip). {@code --rounds N}
 * repeats the whole list N times (a profiler's steady state); {@code --explain} prints each query's plan once.
 * Every loop is bounded by its counts.
 */
public final class WarmProbe {
  private WarmProbe() {}

  public static void main(String[] args) throws Exception {
    double scale = 1;
    Path work = Path.of("lake-it/target/bench/warm-probe");
    List<Integer> queries = java.util.stream.IntStream.rangeClosed(1, 22).boxed().toList();
    int runs = 5;
    int rounds = 1;
    boolean printPlans = false;
    boolean alternate = false;
    boolean prepared = false;
    boolean append = false;
    long gapMillis = 0;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sf" -> scale = Double.parseDouble(args[++i]);
        case "--work" -> work = Path.of(args[++i]);
        case "--queries" -> queries = java.util.Arrays.stream(args[++i].split(",")).map(Integer::valueOf).toList();
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--explain" -> printPlans = true;
        case "--alternate" -> alternate = true;
        case "--prepared" -> prepared = true;
        case "--append" -> append = true;
        case "--gap-ms" -> gapMillis = Long.parseLong(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; use --sf N --work DIR --queries 1,2 --runs N --rounds N --explain --alternate");
      }
    }
    Path lake = work.resolve("lake");
    if (!Files.exists(lake)) {
      try (BufferAllocator allocator = new RootAllocator(); LakeTestServer server = LakeTestServer.start(lake);
          FlightTestClient client = server.client()) {
        for (TpchTable<?> table : TpchTable.getTables()) {
          client.ingest(table.getTableName(), TpchArrow.reader(table, scale, 65_536, allocator),
              FlightTestClient.create(), Map.of());
          System.err.println("loaded " + table.getTableName());
        }
      }
    }
    Map<String, String> settings = new java.util.HashMap<>(Map.of("query.warmup-rows",
        String.valueOf(dev.lake.flight.config.LakeConfig.DEFAULT_WARMUP_ROWS), "log.slow-query-threshold",
        System.getProperty("probe.slow-query-threshold", "10s")));
    for (String setting : System.getProperty("probe.settings", "").split(",")) {
      if (!setting.isBlank()) {
        settings.put(setting.substring(0, setting.indexOf('=')), setting.substring(setting.indexOf('=') + 1));
      }
    }
    try (LakeTestServer server = LakeTestServer.start(lake, b -> { }, settings);
        Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
        FlightTestClient flight = server.client()) {
      for (int round = 0; round < rounds; round++) {
        double logSum = 0;
        for (int query : queries) {
          String sql = query == 0 ? System.getProperty("probe.sql", System.getenv("PROBE_SQL")) : TpchQueries.sql(query);
          if (printPlans && round == 0) {
            System.err.println("Q" + query + " plan:\n" + TpchBenchmark.explain(jdbc, sql));
          }
          TpchBenchmark.jdbcDrain(jdbc, sql);
          List<Long> times = new ArrayList<>();
          List<Long> plans = new ArrayList<>();
          long from = System.currentTimeMillis();
          List<Long> cpus = new ArrayList<>();
          List<Long> flights = new ArrayList<>();
          for (int run = 0; run < runs; run++) {
            long cpu0 = cpu();
            times.add(BenchClock.time(() -> TpchBenchmark.jdbcDrain(jdbc, sql)));
            cpus.add(cpu() - cpu0);
            if (gapMillis > 0) {
              Thread.sleep(gapMillis);
            }
            if (alternate) {
              flights.add(prepared ? BenchClock.time(() -> preparedDrain(flight, sql))
                  : BenchClock.time(() -> TpchBenchmark.flightDrain(flight, sql)));
            }
          }
          Collections.sort(cpus);
          if (alternate) {
            Collections.sort(flights);
            System.err.printf("round %d Q%d flight median %.1f ms%n", round, query, flights.get(runs / 2) / 1e6);
          }
          System.err.printf("window Q%d %d %d%n", query, from, System.currentTimeMillis());
          for (int run = 0; run < Math.min(runs, 5); run++) {
            plans.add(BenchClock.time(() -> TpchBenchmark.explain(jdbc, sql)));
          }
          Collections.sort(times);
          Collections.sort(plans);
          double median = times.get(times.size() / 2) / 1e6;
          logSum += Math.log(median);
          System.err.printf("round %d Q%d median %.1f ms min %.1f ms cpu %.1f ms plan %.1f ms%n", round, query,
              median, times.get(0) / 1e6, cpus.get(cpus.size() / 2) / 1e6, plans.get(plans.size() / 2) / 1e6);
        }
        System.err.printf("round %d geomean %.1f ms over %d queries%n", round,
            Math.exp(logSum / queries.size()), queries.size());
      }
      if (append) {
        try (BufferAllocator allocator = new RootAllocator()) {
          flight.ingest("lineitem", TpchArrow.reader(TpchTable.LINE_ITEM, 0.001, 65_536, allocator),
              FlightTestClient.append(), Map.of());
        }
        for (int query : queries) {
          String sql = TpchQueries.sql(query);
          long first = BenchClock.time(() -> TpchBenchmark.jdbcDrain(jdbc, sql));
          List<Long> times = new ArrayList<>();
          for (int run = 0; run < runs; run++) {
            times.add(BenchClock.time(() -> TpchBenchmark.jdbcDrain(jdbc, sql)));
          }
          Collections.sort(times);
          System.err.printf("append Q%d first %.1f ms then median %.1f ms%n", query, first / 1e6,
              times.get(times.size() / 2) / 1e6);
        }
      }
    }
    System.exit(0);
  }

  /** What the JDBC driver sends for a statement: prepare, execute the prepared statement, read, close. */
  private static long preparedDrain(FlightTestClient client, String sql) throws Exception {
    long rows = 0;
    org.apache.arrow.flight.sql.FlightSqlClient.PreparedStatement statement =
        client.sql().prepare(sql, client.auth());
    try {
      org.apache.arrow.flight.FlightInfo info = statement.execute(client.auth());
      for (org.apache.arrow.flight.FlightEndpoint endpoint : info.getEndpoints()) {
        try (org.apache.arrow.flight.FlightStream stream = client.sql().getStream(endpoint.getTicket(),
            client.auth())) {
          while (stream.next()) {
            rows += stream.getRoot().getRowCount();
          }
        }
      }
    } finally {
      statement.close(client.auth());
    }
    return rows;
  }

  /** This process's CPU time in nanoseconds (every thread: client, server, Lance's native ones). */
  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
