package dev.lake.it.tpch;

import java.nio.file.Path;

/**
 * The benchmark's command line.
 *
 * @param scale TPC-H scale factor
 * @param runs measured runs per query and engine, after one warm-up
 * @param capSeconds an engine whose run of a query takes longer is not run again for that query
 * @param duckDbThreads DuckDB's worker threads
 * @param batchRows rows per generated batch (and per Lance scan batch)
 * @param work where lake's data, the direct Lance writes and nothing else go
 * @param out the Markdown report
 */
record BenchmarkOptions(double scale, int runs, int capSeconds, int duckDbThreads, int batchRows, Path work,
    Path out) {
  static BenchmarkOptions parse(String[] args) {
    double scale = 1;
    int runs = 5;
    int cap = 60;
    int threads = 2;
    int batchRows = 65_536;
    Path work = null;
    Path out = TpchBenchmark.projectRoot().resolve("verification").resolve("bench-tpch.md");
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--sf": scale = Double.parseDouble(value); i++; break;
        case "--runs": runs = Integer.parseInt(value); i++; break;
        case "--cap-seconds": cap = Integer.parseInt(value); i++; break;
        case "--duckdb-threads": threads = Integer.parseInt(value); i++; break;
        case "--batch-rows": batchRows = Integer.parseInt(value); i++; break;
        case "--work": work = Path.of(value); i++; break;
        case "--out": out = Path.of(value); i++; break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i] + "; use --sf N --runs N --cap-seconds N"
              + " --duckdb-threads N --batch-rows N --work DIR --out FILE");
      }
    }
    if (work == null) {
      work = TpchBenchmark.projectRoot().resolve("lake-it").resolve("target").resolve("bench")
          .resolve("run-" + System.currentTimeMillis());
    }
    return new BenchmarkOptions(scale, runs, cap, threads, batchRows, work.toAbsolutePath(), out.toAbsolutePath());
  }
}
