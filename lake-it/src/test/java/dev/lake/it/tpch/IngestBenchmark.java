package dev.lake.it.tpch;

import dev.lake.flight.cli.BulkIngestPut;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.registry.TableRegistration;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * {@code bin/lake bench ingest [--sf N]}: lake's Flight bulk ingest and {@code SELECT *} against Lance alone on the
 * same data, one table at a time. Each table is generated once and held in memory ({@link RecordedBatches}); then
 * {@code --runs} rounds each write exactly those batches twice, in alternating order — once directly with Lance's
 * Java SDK ({@code Dataset.write}, CREATE, default write parameters, as lake's stager uses) and once through a lake
 * server in this JVM over Flight (Flight SQL bulk ingest into a new table, see {@link #ingest}) — and the medians are
 * compared.
 * Then {@code SELECT * FROM} the largest table through FlightSqlClient against a Lance scan of the same version
 * (batch size {@code --batch-rows}, lake's {@code query.batch-rows} default), interleaved, one warm-up and the
 * median of {@code --runs}. Writes {@code --out} (default {@code verification/bench-ingest.md}) with {@code uptime}
 * before and after each table.
 *
 * <p>Options: {@code --sf} (default 1), {@code --runs} (3), {@code --tables} (comma-separated, default all eight),
 * {@code --batch-rows} (65536), {@code --scan-only}/{@code --ingest-only}, {@code --work}, {@code --out}.
 */
public final class IngestBenchmark {
  private static final double INGEST_TARGET = 0.8;
  private static final double SCAN_TARGET = 0.7;

  private final double scale;
  private final int runs;
  private final int warmups;
  private final int batchRows;
  private final List<String> tables;
  private final boolean ingest;
  private final boolean scan;
  private final Path work;
  private final Path out;
  private final List<String> lines = new ArrayList<>();

  private IngestBenchmark(double scale, int runs, int warmups, int batchRows, List<String> tables, boolean ingest,
      boolean scan, Path work, Path out) {
    this.scale = scale;
    this.runs = runs;
    this.warmups = warmups;
    this.batchRows = batchRows;
    this.tables = tables;
    this.ingest = ingest;
    this.scan = scan;
    this.work = work;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    double scale = 1;
    int runs = 5;
    int warmups = 2;
    int batchRows = 65_536;
    List<String> tables = TpchTable.getTables().stream().map(TpchTable::getTableName).toList();
    boolean ingest = true;
    boolean scan = true;
    Path work = null;
    Path out = TpchBenchmark.projectRoot().resolve("verification").resolve("bench-ingest.md");
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--sf": scale = Double.parseDouble(value); i++; break;
        case "--runs": runs = Math.max(1, Math.min(9, Integer.parseInt(value))); i++; break;
        case "--warmup": warmups = Math.max(0, Math.min(5, Integer.parseInt(value))); i++; break;
        case "--batch-rows": batchRows = Integer.parseInt(value); i++; break;
        case "--tables": tables = List.of(value.split(",")); i++; break;
        case "--scan-only": ingest = false; break;
        case "--ingest-only": scan = false; break;
        case "--work": work = Path.of(value); i++; break;
        case "--out": out = Path.of(value); i++; break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i] + "; use --sf N --runs N --warmup N --tables a,b"
              + " --batch-rows N --scan-only --ingest-only --work DIR --out FILE");
      }
    }
    if (work == null) {
      work = TpchBenchmark.projectRoot().resolve("lake-it").resolve("target").resolve("bench")
          .resolve("ingest-" + System.currentTimeMillis());
    }
    int status = 1;
    try {
      new IngestBenchmark(scale, runs, warmups, batchRows, tables, ingest, scan, work.toAbsolutePath(), out.toAbsolutePath())
          .run();
      status = 0;
    } finally {
      // The Flight client leaves non-daemon threads behind: end the JVM, also when the run failed.
      System.exit(status);
    }
  }

  private void run() throws Exception {
    Files.createDirectories(work);
    String startUptime = uptime();
    double directTotal = 0;
    double lakeTotal = 0;
    double firstDirectTotal = 0;
    double firstLakeTotal = 0;
    long rowsTotal = 0;
    List<String> tableRows = new ArrayList<>();
    String scanRow = null;
    try (BufferAllocator allocator = new RootAllocator();
        LakeTestServer server = LakeTestServer.start(work.resolve("lake"));
        FlightTestClient client = server.client()) {
      String scanned = null;
      long scannedRows = -1;
      for (String name : tables) {
        TpchTable<?> table = TpchTable.getTable(name);
        try (RecordedBatches batches = RecordedBatches.record(TpchArrow.reader(table, scale, batchRows, allocator))) {
          String load = uptime();
          if (!ingest) {
            client.ingest(name, batches.reader(allocator), FlightTestClient.create(), Map.of());
          } else {
            Samples direct = new Samples();
            Samples lake = new Samples();
            Samples warmDirect = new Samples();
            Samples warmLake = new Samples();
            for (int round = 0; round < warmups + runs; round++) {
              Samples directSamples = round < warmups ? warmDirect : direct;
              Samples lakeSamples = round < warmups ? warmLake : lake;
              Path uri = work.resolve("direct").resolve(name + "-" + round);
              String target = round == 0 ? name : name + "_" + round;
              BenchClock.Action lance = () -> LanceDirect.write(uri.toString(), batches.reader(allocator), allocator);
              BenchClock.Action flight = () -> ingest(client, target, batches.reader(allocator));
              // alternate which goes first, so neither always runs on a warmer (or more crowded) machine
              String[] cpu = new String[2];
              if (round % 2 == 0) {
                cpu[0] = timed(directSamples, lance);
                cpu[1] = timed(lakeSamples, flight);
              } else {
                cpu[1] = timed(lakeSamples, flight);
                cpu[0] = timed(directSamples, lance);
              }
              deleteTree(uri);
              BenchmarkReport.log(String.format(Locale.ROOT, "%s round %d%s: direct %.0f ms (%s), lake %.0f ms (%s)",
                  name, round, round < warmups ? " (warm-up)" : "", last(directSamples), cpu[0], last(lakeSamples),
                  cpu[1]));
            }
            double firstDirect = warmups > 0 ? warmDirect.values().get(0) : direct.values().get(0);
            double firstLake = warmups > 0 ? warmLake.values().get(0) : lake.values().get(0);
            firstDirectTotal += firstDirect;
            firstLakeTotal += firstLake;
            directTotal += direct.median();
            lakeTotal += lake.median();
            rowsTotal += batches.rows();
            tableRows.add(String.format(Locale.ROOT, "| %s | %,d | %s / %s | %s | %s | %s | %s | %.0f%% | %.0f%% | `%s` |",
                name, batches.rows(), warmups > 0 ? values(warmDirect) : "-", warmups > 0 ? values(warmLake) : "-",
                all(direct), all(lake), rate(batches.rows(), direct.median()), rate(batches.rows(), lake.median()),
                100 * direct.median() / lake.median(), 100 * firstDirect / firstLake, loadOf(load)));
          }
          if (batches.rows() > scannedRows) {
            scanned = name;
            scannedRows = batches.rows();
          }
        }
      }
      if (scan && scanned != null) {
        scanRow = selectStar(allocator, server, client, scanned);
      }
    } finally {
      deleteTree(work);
    }
    String endUptime = uptime();
    StringBuilder text = new StringBuilder();
    text.append("# Ingest and SELECT * through Flight against Lance alone, TPC-H SF ").append(scale).append("\n\n");
    text.append(String.format(Locale.ROOT, "Written by `bin/lake bench ingest --sf %s` on %s. Machine: %d cores,"
        + " Java %s, max heap %d MB. One lake node in this JVM (RocksDB registry, local Lance), its client"
        + " Flight client in the same JVM (so the client's encoding shares the cores, as a local client would), sending"
        + " with lake's own sender (`BulkIngestPut`, as `bin/lake ingest` does), which waits for the transport by"
        + " parking, as pyarrow and the C++ client do (Arrow Java's own `executeIngest` spins on `isReady()`, taking a"
        + " core from the server)."
        + " Each table is generated once into memory; then %d warm-up rounds and %d measured rounds each write exactly"
        + " those batches (%,d rows per"
        + " batch) directly with Lance (`Dataset.write`, CREATE, default write parameters — the ones lake's stager"
        + " passes to `Fragment.write`) and through lake's Flight bulk ingest (a new table: stage, commit, register),"
        + " alternating which goes first. Times in ms, every round shown, the median of the measured rounds used."
        + " The warm-up rounds let the JIT compile the paths (in a fresh JVM the first ingests spend seconds of"
        + " compiler-thread CPU on the Flight, gRPC and netty paths, docs/performance.md, \"Bulk ingest\"); the first"
        + " round's ratio is shown too: for the first table it is a fresh JVM's.\n\n"
        + "`uptime` at the start: `%s`; at the end: `%s`.\n\n", scale,
        Instant.now().truncatedTo(ChronoUnit.SECONDS), Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20, warmups, runs, batchRows, startUptime,
        endUptime));
    if (!tableRows.isEmpty()) {
      text.append("| table | rows | warm-up rounds: direct / lake (ms) | direct Lance (ms) | lake Flight ingest (ms) |"
          + " direct rows/s | lake rows/s | lake/direct | first round lake/direct | load before |\n"
          + "|---|---:|---|---|---|---:|---:|---:|---:|---|\n");
      tableRows.forEach(row -> text.append(row).append('\n'));
      double ratio = directTotal / lakeTotal;
      text.append(String.format(Locale.ROOT, "\nAll tables (%,d rows, sums of medians): direct %s rows/s, lake %s"
          + " rows/s = %.0f%% (target >= %.0f%%: %s)\n\n", rowsTotal, rate(rowsTotal, directTotal),
          rate(rowsTotal, lakeTotal), 100 * ratio, 100 * INGEST_TARGET, ratio >= INGEST_TARGET ? "met" : "missed"));
      text.append(String.format(Locale.ROOT, "First rounds (each table's first ingest; sums): lake/direct = %.0f%%.%n%n",
          100 * firstDirectTotal / firstLakeTotal));
    }
    if (scanRow != null) {
      text.append("| scan | rows | lake Flight (ms) | Lance scan (ms) | lake rows/s | Lance rows/s | lake/Lance |"
          + " target |\n|---|---:|---|---|---:|---:|---:|---|\n").append(scanRow).append('\n');
    }
    Files.createDirectories(out.getParent());
    Files.writeString(out, text.toString());
    System.out.println(text);
    BenchmarkReport.log("wrote " + out);
  }

  /**
   * {@code action}, logging the CPU each run took by thread group when {@code -Dbench.thread-cpu=true} (reading
   * /proc adds a millisecond or two to each timed run, so it is off by default).
   */
  private static BenchClock.Action cpuLogged(String name, BenchClock.Action action) {
    if (!Boolean.getBoolean("bench.thread-cpu")) {
      return action;
    }
    return () -> {
      ThreadCpu before = ThreadCpu.now();
      Object result = action.run();
      ThreadCpu after = ThreadCpu.now();
      BenchmarkReport.log(name + ": cpu " + after.processMillisSince(before) + " ms: " + after.groupsSince(before, 8));
      return result;
    };
  }

  /** Times {@code action} into {@code samples}; says the CPU it took, in all and by thread group (the log's). */
  private static String timed(Samples samples, BenchClock.Action action) throws Exception {
    ThreadCpu before = ThreadCpu.now();
    samples.add(BenchClock.time(action));
    ThreadCpu after = ThreadCpu.now();
    return "cpu " + after.processMillisSince(before) + " ms: " + after.groupsSince(before, 8);
  }

  /**
   * Flight SQL bulk ingest of {@code data} into a new table with lake's own client sender ({@link BulkIngestPut}, what
   * {@code bin/lake ingest} uses): it waits for the transport by parking, as pyarrow and the C++ client block in
   * gRPC, where Arrow Java's {@code executeIngest} busy-waits on {@code isReady()} and takes a core from the server on
   * a 2-core machine (measured: 3.7-4.1 s of CPU of the client's thread during an SF 1 lineitem ingest). Returns the
   * row count the server acknowledged.
   */
  static long ingest(FlightTestClient client, String table, ArrowReader data) {
    return BulkIngestPut.send(client.flight(), table, FlightTestClient.create(), Map.of(), data, client.auth());
  }

  /** SELECT * through FlightSqlClient against a Lance scan of the same version, interleaved. */
  private String selectStar(BufferAllocator allocator, LakeTestServer server, FlightTestClient client, String name)
      throws Exception {
    TableRegistration table = server.server().metaStore().get(name).orElseThrow();
    String sql = "SELECT * FROM " + name;
    List<Samples> samples = BenchClock.interleave(List.of(
        new BenchClock.Timed("lake-flight", cpuLogged("lake-flight", () -> TpchBenchmark.flightDrain(client, sql))),
        new BenchClock.Timed("lance-scan", cpuLogged("lance-scan", () -> LanceDirect.scanAll(table.location(),
            table.version(), batchRows, allocator)))), runs, Long.MAX_VALUE);
    long rows = client.count(name);
    Samples lake = samples.get(0);
    Samples lance = samples.get(1);
    double ratio = lance.median() / lake.median();
    BenchmarkReport.log(String.format(Locale.ROOT, "SELECT * FROM %s: lake %.0f ms, Lance %.0f ms", name,
        lake.median(), lance.median()));
    return String.format(Locale.ROOT, "| SELECT * FROM %s (all columns) | %,d | %s | %s | %s | %s | %.0f%% | >= %.0f%%:"
        + " %s |", name, rows, all(lake), all(lance), rate(rows, lake.median()), rate(rows, lance.median()),
        100 * ratio, 100 * SCAN_TARGET, ratio >= SCAN_TARGET ? "met" : "missed");
  }

  private static double last(Samples samples) {
    return samples.values().get(samples.count() - 1);
  }

  private static String values(Samples samples) {
    StringBuilder text = new StringBuilder();
    for (double value : samples.values()) {
      text.append(text.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", value));
    }
    return text.toString();
  }

  private static String all(Samples samples) {
    return values(samples) + String.format(Locale.ROOT, " (median %.0f)", samples.median());
  }

  private static String rate(long rows, double millis) {
    return String.format(Locale.ROOT, "%,.0f", rows / (millis / 1000));
  }

  private static String loadOf(String uptime) {
    int at = uptime.indexOf("load average");
    return at < 0 ? uptime : uptime.substring(at);
  }

  private static String uptime() {
    try {
      Process process = new ProcessBuilder("uptime").redirectErrorStream(true).start();
      String text = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      process.waitFor();
      return text.trim();
    } catch (IOException e) {
      return "uptime unavailable";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "uptime interrupted";
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
