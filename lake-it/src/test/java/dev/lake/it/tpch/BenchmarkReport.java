package dev.lake.it.tpch;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Collects the benchmark's figures and writes them as Markdown (and to standard output). */
final class BenchmarkReport {
  /** Issue 22, warm: geometric mean against DuckDB over Parquet, in memory, and no query over this ratio. */
  private static final double GEOMEAN_PARQUET_TARGET = 1.0;
  private static final double GEOMEAN_MEMORY_TARGET = 1.5;
  private static final double WORST_TARGET = 2;
  /** Issue 22, cold: geometric mean and worst query against DuckDB's first run over Parquet. */
  private static final double COLD_GEOMEAN_TARGET = 2;
  private static final double COLD_WORST_TARGET = 5;
  /** Issue 22, after an append: within this ratio of warm. */
  private static final double APPEND_TARGET = 1.2;
  /** Issue 9: every single-table query faster than Lance's own SQL. */
  private static final double SINGLE_TABLE_TARGET = 1.0;
  /** Issue 9: Q1 and Q6 within this ratio of DuckDB through JDBC. */
  private static final double Q1_Q6_TARGET = 1.5;
  private static final double INGEST_TARGET = 0.8;
  private static final double SCAN_TARGET = 0.7;
  private static final double FIRST_BATCH_TARGET_MS = 100;

  private final BenchmarkOptions options;
  private final List<String> loadRows = new ArrayList<>();
  private final List<String> queryRows = new ArrayList<>();
  private final List<Double> jdbcRatios = new ArrayList<>();
  private final List<Double> flightRatios = new ArrayList<>();
  private final List<Double> parquetRatios = new ArrayList<>();
  private final List<Double> flightParquetRatios = new ArrayList<>();
  private final List<String> overWorst = new ArrayList<>();
  private final java.util.Map<Integer, long[]> cold = new java.util.TreeMap<>();
  private final java.util.Map<Integer, Long> afterAppend = new java.util.TreeMap<>();
  private final java.util.Map<Integer, Double> warmJdbc = new java.util.TreeMap<>();
  private long appendedRows;
  private String uptimeAtStart = "";
  private String uptimeAtEnd = "";
  private final List<String> singleTable = new ArrayList<>();
  private final List<String> scan = new ArrayList<>();
  private final List<String> answers = new ArrayList<>();
  private final List<String> appendAnswers = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private long directRows;
  private double directMillis;
  private double ingestMillis;
  private String lastQueryLine = "";

  BenchmarkReport(BenchmarkOptions options) {
    this.options = options;
  }

  /** The system's one-minute load average (other processes compete for the same cores). */
  private static double loadAverage() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  static void log(String line) {
    System.out.println("[bench " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "] " + line);
  }

  void table(String name, long rows, long generatedNanos, Samples direct, Samples ingest, long duckNanos) {
    directRows += rows;
    directMillis += direct.median();
    ingestMillis += ingest.median();
    loadRows.add(String.format(Locale.ROOT, "| %s | %,d | %,.0f | %s | %s | %.0f%% | %,.0f |", name, rows,
        generatedNanos / 1e6, rate(rows, direct.median()), rate(rows, ingest.median()),
        100 * direct.median() / ingest.median(), duckNanos / 1e6));
  }

  /** A table loaded straight from its generator (streamed: no direct Lance write to compare with). */
  void streamedTable(String name, long rows, long ingestNanos, long duckNanos) {
    loadRows.add(String.format(Locale.ROOT, "| %s | %,d | (in ingest) | - | %s (with generation) | - | %,.0f |", name,
        rows, rate(rows, ingestNanos / 1e6), duckNanos / 1e6));
  }

  /**
   * @param samples DuckDB in memory, DuckDB over Parquet, lake through JDBC, lake through FlightSqlClient, and (when
   *     pushed down whole) Lance SQL
   */
  void query(int number, long firstPlanningNanos, double warmPlanningMillis, String path, List<Samples> samples,
      boolean pushedWhole) {
    Samples duck = samples.get(0);
    Samples parquet = samples.get(1);
    Samples jdbc = samples.get(2);
    Samples flight = samples.get(3);
    double jdbcRatio = jdbc.median() / duck.median();
    double flightRatio = flight.median() / duck.median();
    double parquetRatio = jdbc.median() / parquet.median();
    double flightParquetRatio = flight.median() / parquet.median();
    jdbcRatios.add(jdbcRatio);
    flightRatios.add(flightRatio);
    parquetRatios.add(parquetRatio);
    flightParquetRatios.add(flightParquetRatio);
    warmJdbc.put(number, jdbc.median());
    if (Math.max(jdbcRatio, parquetRatio) > WORST_TARGET) {
      overWorst.add("Q" + number);
    }
    String lance = "";
    String lanceRatio = "";
    if (pushedWhole) {
      Samples lanceSql = samples.get(4);
      double best = Math.min(jdbc.median(), flight.median());
      lance = ms(lanceSql);
      lanceRatio = String.format(Locale.ROOT, "%.2fx", best / lanceSql.median());
      singleTable.add(String.format(Locale.ROOT, "Q%d: lake %.1f ms (best of JDBC/Flight) vs Lance SQL %.1f ms ="
          + " %.2fx (target < %.2fx: %s)", number, best, lanceSql.median(), best / lanceSql.median(),
          SINGLE_TABLE_TARGET, best / lanceSql.median() < SINGLE_TABLE_TARGET ? "met" : "missed"));
    }
    if (number == 1 || number == 6) {
      singleTable.add(String.format(Locale.ROOT, "Q%d through JDBC: %.2fx DuckDB (target <= %.1fx: %s)", number,
          jdbcRatio, Q1_Q6_TARGET, jdbcRatio <= Q1_Q6_TARGET ? "met" : "missed"));
    }
    String pathName = path.contains(":") ? path.substring(0, path.indexOf(':')) : path;
    lastQueryLine = String.format(Locale.ROOT, "| Q%d | %s | %.0f | %.0f | %s | %s | %s | %s | %s | %.2fx | %.2fx |"
        + " %.2fx | %s |", number, pathName, firstPlanningNanos / 1e6, warmPlanningMillis, ms(duck), ms(parquet),
        ms(jdbc), ms(flight), lance, jdbcRatio, parquetRatio, flightParquetRatio, lanceRatio);
    queryRows.add(lastQueryLine);
  }

  /** Query {@code number}'s first run on a freshly started lake server and DuckDB's first run over Parquet. */
  void cold(int number, long lakeNanos, long duckNanos) {
    cold.put(number, new long[] {lakeNanos, duckNanos});
  }

  /** Rows the after-append column's ingest added to lineitem. */
  void appended(long rows) {
    appendedRows = rows;
  }

  /** Query {@code number}'s first run through JDBC after the append. */
  void afterAppend(int number, long nanos) {
    afterAppend.put(number, nanos);
  }

  /** Records the output of {@code uptime} (the machine's load) at the start or the end of the run. */
  void uptime(boolean start) {
    String text;
    try {
      Process process = new ProcessBuilder("uptime").redirectErrorStream(true).start();
      text = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
      process.waitFor();
    } catch (IOException e) {
      text = String.format(Locale.ROOT, "load average %.2f (uptime unavailable)", loadAverage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      text = String.format(Locale.ROOT, "load average %.2f", loadAverage());
    }
    if (start) {
      uptimeAtStart = text;
    } else {
      uptimeAtEnd = text;
    }
  }

  /** The process's peak and current resident set size, from /proc (Linux). */
  private static String rss() {
    try {
      String peak = "";
      String now = "";
      for (String line : Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          peak = line.substring(6).trim();
        } else if (line.startsWith("VmRSS:")) {
          now = line.substring(6).trim();
        }
      }
      return "peak RSS " + peak + ", RSS at the end " + now;
    } catch (IOException e) {
      return "RSS unavailable";
    }
  }

  String lastQueryLine() {
    return lastQueryLine;
  }

  void scan(long rows, Samples flight, Samples lance, Samples firstBatch) {
    double ratio = lance.median() / flight.median();
    scan.add(String.format(Locale.ROOT, "| SELECT * FROM lineitem (%,d rows, all columns) | %s rows/s | %s rows/s |"
        + " %.0f%% | >= %.0f%%: %s |", rows, rate(rows, flight.median()), rate(rows, lance.median()), 100 * ratio,
        100 * SCAN_TARGET, ratio >= SCAN_TARGET ? "met" : "missed"));
    double ingestRatio = directMillis / ingestMillis;
    scan.add(String.format(Locale.ROOT, "| ingest of all tables (%,d rows) | %s rows/s (Flight bulk ingest) |"
        + " %s rows/s (direct Lance write) | %.0f%% | >= %.0f%%: %s |", directRows, rate(directRows, ingestMillis),
        rate(directRows, directMillis), 100 * ingestRatio, 100 * INGEST_TARGET,
        ingestRatio >= INGEST_TARGET ? "met" : "missed"));
    scan.add(String.format(Locale.ROOT, "| warm time to first batch (SELECT * FROM lineitem, FlightSqlClient) |"
        + " %.1f ms (median of 5) | | | <= %.0f ms: %s |", firstBatch.median(), FIRST_BATCH_TARGET_MS,
        firstBatch.median() <= FIRST_BATCH_TARGET_MS ? "met" : "missed"));
  }

  /** Query {@code number}'s answer through JDBC against DuckDB's ({@link Answers}): empty when they agree. */
  void answer(int number, java.util.Optional<String> difference) {
    answers.add("Q" + number + ": " + difference.orElse("matches"));
  }

  /** Query {@code number}'s answer after the append against DuckDB's with the same rows appended. */
  void appendAnswer(int number, java.util.Optional<String> difference) {
    appendAnswers.add("Q" + number + ": " + difference.orElse("matches"));
  }

  /** Query {@code number} failed in {@code phase} (cold, warm, after append): the run goes on without it. */
  void failed(int number, String phase, Exception failure) {
    String message = cause(failure);
    failures.add("Q" + number + " (" + phase + "): " + failure.getClass().getSimpleName() + ": " + message);
    log("Q" + number + " failed (" + phase + "): " + message);
  }

  /**
   * What failed, without the statement's text: the JDBC driver's message starts with the SQL (many lines), so the
   * first line of the innermost cause that has a message is what the server answered.
   */
  private static String cause(Throwable failure) {
    String message = String.valueOf(failure.getMessage());
    java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        message = t.getMessage();
      }
    }
    return message.strip().lines().findFirst().orElse("");
  }

  void write() throws IOException {
    double jdbcGeomean = Samples.geometricMean(jdbcRatios);
    double flightGeomean = Samples.geometricMean(flightRatios);
    double parquetGeomean = Samples.geometricMean(parquetRatios);
    double flightParquetGeomean = Samples.geometricMean(flightParquetRatios);
    StringBuilder text = new StringBuilder();
    text.append("# TPC-H SF ").append(scaleText()).append(": lake against DuckDB, same data, same run\n\n");
    text.append(String.format(Locale.ROOT, "Written by `bin/lake bench tpch --sf %s` on %s. Machine: %d cores,"
        + " Java %s, %s, max heap %d MB, %s. lake runs in process (one node, RocksDB registry, local Lance) and is"
        + " queried through the Flight SQL JDBC driver and through FlightSqlClient; DuckDB %d threads%s, in memory"
        + " (loaded from the same Arrow batches) and over Parquet files it wrote from those tables (COPY)."
        + " Each query: one warm-up, then %d interleaved runs per engine (DuckDB in memory, DuckDB over Parquet,"
        + " lake JDBC, lake Flight, Lance SQL), medians in milliseconds; a run over %d s stops that engine's runs for"
        + " that query (marked *). Results are read whole by every client (JDBC: getObject of every value).\n\n"
        + "`uptime` at the start: `%s`; at the end: `%s` — other processes share the cores, so absolute times vary"
        + " between runs; ratios within a run are interleaved.\n\n",
        scaleText(), Instant.now().truncatedTo(ChronoUnit.SECONDS), Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), System.getProperty("os.name"),
        Runtime.getRuntime().maxMemory() >> 20, rss(), options.duckDbThreads(),
        options.duckDbMemory() == null ? "" : " and memory_limit " + options.duckDbMemory() + " per database",
        options.runs(),
        options.capSeconds(), uptimeAtStart, uptimeAtEnd));
    text.append("## Answers\n\n");
    text.append("Each query's answer through JDBC against DuckDB's, decimals equal to DuckDB's correctly rounded at"
        + " their declared scale (`Answers`, as `tpchQueriesMatchDuckDb` checks at SF 0.01 and 0.1): ");
    long differing = answers.stream().filter(a -> !a.endsWith(": matches")).count();
    text.append(differing == 0 ? "all " + answers.size() + " match.\n\n" : differing + " differ:\n\n");
    answers.stream().filter(a -> !a.endsWith(": matches")).forEach(a -> text.append("- ").append(a).append('\n'));
    if (differing > 0) {
      text.append('\n');
    }
    if (!failures.isEmpty()) {
      text.append("**Failed** (left out of the tables and the means below):\n\n");
      failures.forEach(f -> text.append("- ").append(f).append('\n'));
      text.append('\n');
    }
    text.append("## Queries, warm\n\n");
    text.append("`path`: vectorized = the whole query ran in lake's vectorized executor (parallel fragment scans,"
        + " filter, projection and hash aggregation over Arrow batches; `query.executor=auto` picked it); lance-sql ="
        + " the whole query ran in Lance's SQL engine (DataFusion) and its batches streamed"
        + " out; join-vectorized = an aggregate over inner joins ran in the vectorized executor (the biggest table's"
        + " parallel scan probes hash tables built from the other join inputs), the rest in Calcite;"
        + " calcite = Calcite's Enumerable runtime joins, over pushed-down subtrees and Lance scans. `plan 1st`"
        + " = the first EXPLAIN of the query through JDBC after its cold run (parse, validate, optimize, round"
        + " trip); `plan` = median of 3 more EXPLAINs (optimization of a validated statement). `mem` = DuckDB in"
        + " memory, `pq` = DuckDB over the Parquet files.\n\n");
    text.append("| query | path | plan 1st | plan | DuckDB mem | DuckDB pq | lake JDBC | lake Flight | Lance SQL |"
        + " JDBC/mem | JDBC/pq | Flight/pq | lake/Lance SQL |\n"
        + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    queryRows.forEach(row -> text.append(row).append('\n'));
    text.append(String.format(Locale.ROOT, "\nGeometric mean of lake/DuckDB over Parquet: %.2fx through JDBC, %.2fx"
        + " through FlightSqlClient (target <= %.1fx: %s); against DuckDB in memory: %.2fx through JDBC, %.2fx"
        + " through FlightSqlClient (target <= %.1fx: %s). Queries over %.0fx of either (JDBC): %s.\n\n",
        parquetGeomean, flightParquetGeomean, GEOMEAN_PARQUET_TARGET,
        Math.min(parquetGeomean, flightParquetGeomean) <= GEOMEAN_PARQUET_TARGET ? "met" : "missed",
        jdbcGeomean, flightGeomean, GEOMEAN_MEMORY_TARGET,
        Math.min(jdbcGeomean, flightGeomean) <= GEOMEAN_MEMORY_TARGET ? "met" : "missed", WORST_TARGET,
        overWorst.isEmpty() ? "none" : String.join(", ", overWorst)));
    text.append("Single-table queries against Lance's own SQL (the statement lake generated, run by Lance's Java"
        + " SDK on the same dataset version):\n\n");
    singleTable.forEach(line -> text.append("- ").append(line).append('\n'));
    coldAndAppend(text);
    text.append("\n## Load, scan, first batch\n\n");
    text.append("lake's Flight ingest is sent by lake's own client sender (`BulkIngestPut`, as `bin/lake ingest` sends),"
        + " which waits for gRPC's flow control by parking (Arrow Java's `executeIngest` spins on `isReady()`); the"
        + " server runs as shipped, its background statistics analysis (query.auto-analyze) included.\n\n");
    text.append("| table | rows | generate (ms) | direct Lance write | lake Flight ingest | ingest/direct |"
        + " DuckDB load (ms) |\n|---|---:|---:|---:|---:|---:|---:|\n");
    loadRows.forEach(row -> text.append(row).append('\n'));
    text.append("\n| measure | lake | Lance alone | lake/Lance | target |\n|---|---:|---:|---:|---|\n");
    scan.forEach(row -> text.append(row).append('\n'));
    Files.createDirectories(options.out().getParent());
    Files.writeString(options.out(), text.toString());
    System.out.println(text);
    log("wrote " + options.out());
  }

  private void coldAndAppend(StringBuilder text) {
    text.append("\n## Cold, and after an append\n\n");
    text.append(String.format(Locale.ROOT, "`cold`: the lake server is stopped after loading and started again"
        + " over the same data directory (in the same JVM, which has ingested but run no query; the server starts as"
        + " shipped and returns once its start-up warm-up — query.warmup-rows, synthetic tables of its own — ended;"
        + " lake's catalog, plan cache, column cache and Lance's dataset handles of the TPC-H tables start empty;"
        + " the column statistics are those the loading server's background analysis (query.auto-analyze, on as"
        + " shipped) kept under the data directory while it ingested), then each query runs once through JDBC, in"
        + " order, before any warm run; DuckDB's column is each query's first run over the same Parquet files in a"
        + " fresh connection. `after append`: after the warm runs, %,d rows (lineitem at SF %s) are ingested into"
        + " lineitem through Flight (a new version), then each query runs once through JDBC; compared with its"
        + " warm median.\n\n", appendedRows, "0.001"));
    text.append("| query | lake cold | DuckDB pq cold | cold lake/pq | lake after append | lake warm |"
        + " append/warm |\n|---|---:|---:|---:|---:|---:|---:|\n");
    List<Double> coldRatios = new ArrayList<>();
    List<Double> appendRatios = new ArrayList<>();
    List<String> coldWorst = new ArrayList<>();
    List<String> appendWorst = new ArrayList<>();
    for (java.util.Map.Entry<Integer, long[]> entry : cold.entrySet()) {
      int query = entry.getKey();
      double lake = entry.getValue()[0] / 1e6;
      double duck = entry.getValue()[1] / 1e6;
      double ratio = lake / duck;
      coldRatios.add(ratio);
      if (ratio > COLD_WORST_TARGET) {
        coldWorst.add(String.format(Locale.ROOT, "Q%d %.1fx", query, ratio));
      }
      Long appended = afterAppend.get(query);
      Double warm = warmJdbc.get(query);
      String appendCells = " | | ";
      if (appended != null && warm != null) {
        double appendRatio = appended / 1e6 / warm;
        appendRatios.add(appendRatio);
        if (appendRatio > APPEND_TARGET) {
          appendWorst.add(String.format(Locale.ROOT, "Q%d %.2fx", query, appendRatio));
        }
        appendCells = String.format(Locale.ROOT, "%.1f | %.1f | %.2fx", appended / 1e6, warm, appendRatio);
      }
      text.append(String.format(Locale.ROOT, "| Q%d | %.1f | %.1f | %.2fx | %s |%n", query, lake, duck, ratio,
          appendCells));
    }
    double coldGeomean = Samples.geometricMean(coldRatios);
    double appendGeomean = Samples.geometricMean(appendRatios);
    text.append(String.format(Locale.ROOT, "\nCold: geometric mean of lake/DuckDB over Parquet %.2fx (target <="
        + " %.0fx: %s); queries over %.0fx: %s. After an append: geometric mean of first run/warm %.2fx (target"
        + " <= %.1fx: %s); queries over %.1fx: %s.\n", coldGeomean, COLD_GEOMEAN_TARGET,
        coldGeomean <= COLD_GEOMEAN_TARGET ? "met" : "missed", COLD_WORST_TARGET,
        coldWorst.isEmpty() ? "none" : String.join(", ", coldWorst), appendGeomean, APPEND_TARGET,
        appendGeomean <= APPEND_TARGET ? "met" : "missed", APPEND_TARGET,
        appendWorst.isEmpty() ? "none" : String.join(", ", appendWorst)));
    long appendDiffering = appendAnswers.stream().filter(a -> !a.endsWith(": matches")).count();
    text.append("\nAnswers after the append (each query's second run through JDBC against DuckDB in memory with the"
        + " same rows appended): " + (appendDiffering == 0 ? "all " + appendAnswers.size() + " match.\n"
        : appendDiffering + " differ:\n\n"));
    appendAnswers.stream().filter(a -> !a.endsWith(": matches"))
        .forEach(a -> text.append("- ").append(a).append('\n'));
  }

  private String scaleText() {
    return options.scale() == Math.rint(options.scale()) ? String.valueOf((long) options.scale())
        : String.valueOf(options.scale());
  }

  private static String ms(Samples samples) {
    if (samples.isEmpty()) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.1f%s", samples.median(), samples.isCapped() ? "*" : "");
  }

  private static String rate(long rows, double millis) {
    return String.format(Locale.ROOT, "%,.0f", rows / (millis / 1000));
  }
}
