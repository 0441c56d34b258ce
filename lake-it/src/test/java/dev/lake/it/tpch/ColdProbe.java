package dev.lake.it.tpch;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A quick look at cold runs without the whole benchmark: loads TPC-H at {@code --sf} into {@code --work}/lake once
 * (kept between runs), then {@code --restarts} times starts a fresh server over it and runs each of {@code --queries}
 * twice (first run, second run), printing both with the process CPU time they took; {@code --prewarm SQL} runs
 * one statement before them; {@code --warmup-rows N} sets the restarted servers' {@code query.warmup-rows} (0 by default,
 * as test servers; the benchmark starts them as shipped), {@code --auto-analyze true|false} the loading and restarted
 * servers' {@code query.auto-analyze} (test servers: off), {@code --load true} loads the data afresh in this JVM
 * first (as the benchmark's cold column does: the JVM has ingested, but run no query). Every loop is bounded by its
 * counts.
 */
public final class ColdProbe {
  private ColdProbe() {}

  public static void main(String[] args) throws Exception {
    double scale = 0.1;
    Path work = Path.of("lake-it/target/bench/cold-probe");
    List<Integer> queries = java.util.stream.IntStream.rangeClosed(1, 22).boxed().toList();
    int restarts = 1;
    String prewarm = null;
    String warmupRows = "0";
    Map<String, String> analyze = Map.of();
    boolean reload = false;
    long settleMillis = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--sf" -> scale = Double.parseDouble(args[i + 1]);
        case "--work" -> work = Path.of(args[i + 1]);
        case "--queries" -> queries = java.util.Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf).toList();
        case "--restarts" -> restarts = Integer.parseInt(args[i + 1]);
        case "--prewarm" -> prewarm = args[i + 1];
        case "--warmup-rows" -> warmupRows = args[i + 1];
        case "--auto-analyze" -> analyze = Map.of("query.auto-analyze", args[i + 1]);
        case "--load" -> reload = Boolean.parseBoolean(args[i + 1]);
        case "--settle-ms" -> settleMillis = Long.parseLong(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; use --sf N --work DIR --queries 1,2 --restarts N --prewarm SQL --warmup-rows N --auto-analyze true|false"
            + " --load true|false");
      }
    }
    Path lake = work.resolve(reload ? "lake-loaded" : "lake");
    if (reload) {
      deleteTree(lake);
    }
    if (!Files.exists(lake)) {
      try (BufferAllocator allocator = new RootAllocator();
          LakeTestServer server = LakeTestServer.start(lake, b -> { }, analyze);
          FlightTestClient client = server.client()) {
        for (TpchTable<?> table : TpchTable.getTables()) {
          client.ingest(table.getTableName(), TpchArrow.reader(table, scale, 65_536, allocator),
              FlightTestClient.create(), Map.of());
          System.err.println("loaded " + table.getTableName());
        }
      }
    }
    for (int round = 0; round < restarts; round++) {
      long started = System.nanoTime();
      Map<String, String> settings = new java.util.HashMap<>(analyze);
      settings.put("query.warmup-rows", warmupRows);
      try (LakeTestServer server = LakeTestServer.start(lake, b -> { }, settings);
          Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
        System.err.println("server started in " + (System.nanoTime() - started) / 1_000_000 + " ms");
        if (settleMillis > 0) {
          Thread.sleep(settleMillis);
        }
        long total = 0;
        if (prewarm != null) {
          String warm = prewarm;
          ThreadCpu cpu0 = ThreadCpu.now();
          long took = BenchClock.time(() -> TpchBenchmark.jdbcDrain(jdbc, warm));
          System.err.printf("prewarm %d ms (cpu %d ms)%n", took / 1_000_000, ThreadCpu.now().processMillisSince(cpu0));
        }
        for (int query : queries) {
          String sql = TpchQueries.sql(query);
          ThreadCpu cpu0 = ThreadCpu.now();
          long first = BenchClock.time(() -> TpchBenchmark.jdbcDrain(jdbc, sql));
          ThreadCpu cpu1 = ThreadCpu.now();
          System.err.printf("round %d Q%d first-run threads (ms): %s%n", round, query, cpu1.groupsSince(cpu0, 8));
          long second = BenchClock.time(() -> TpchBenchmark.jdbcDrain(jdbc, sql));
          ThreadCpu cpu2 = ThreadCpu.now();
          total += first;
          System.err.printf("round %d Q%d first %d ms (cpu %d ms) second %d ms (cpu %d ms)%n", round, query,
              first / 1_000_000, cpu1.processMillisSince(cpu0), second / 1_000_000, cpu2.processMillisSince(cpu1));
        }
        System.err.printf("round %d total first %d ms%n", round, total / 1_000_000);
      }
    }
    System.exit(0);
  }

  private static void deleteTree(Path root) throws java.io.IOException {
    if (Files.exists(root)) {
      try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
        for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
  }
}
