package dev.lake.it.tpch;

import java.nio.file.Path;

/**
 * The benchmark's command line.
 *
 * @param scale TPC-H scale factor
 * @param runs measured runs per query and engine, after one warm-up
 * @param capSeconds an engine whose run of a query takes longer is not run again for that query
 * @param duckDbThreads DuckDB's worker threads
 * @param duckDbMemory each DuckDB database's {@code memory_limit} (e.g. {@code 5GB}), paging to a directory under
 *     {@code work}; null for DuckDB's default (80% of the machine's memory per database): at scale factor 10 the
 *     in-memory copy, the Parquet views and lake share one process and one machine
 * @param batchRows rows per generated batch (and per Lance scan batch)
 * @param work where lake's data, the direct Lance writes and nothing else go
 * @param out the Markdown report
 * @param queries the TPC-H queries to run (all 22 by default); a partial run skips the direct Lance writes and the
 *     SELECT * measurement, for quick looks at a few queries
 * @param streamed load each table straight from its generator into lake, and again into DuckDB, instead of holding
 *     its batches in memory for every consumer (no direct Lance writes, no SELECT * measurement): for scales whose
 *     data does not fit in memory twice; on by default from scale factor 5 ({@code --streamed} / {@code --recorded})
 */
record BenchmarkOptions(double scale, int runs, int capSeconds, int duckDbThreads, String duckDbMemory,
    int batchRows, Path work, Path out, java.util.List<Integer> queries, boolean streamed) {
  boolean partial() {
    return queries.size() < 22;
  }

  /** Whether the direct Lance writes and the SELECT * measurement are skipped. */
  boolean skipsLoadMeasures() {
    return partial() || streamed;
  }

  static BenchmarkOptions parse(String[] args) {
    double scale = 1;
    int runs = 5;
    int cap = 60;
    int threads = 2;
    String duckDbMemory = null;
    int batchRows = 65_536;
    Path work = null;
    Boolean streamed = null;
    java.util.List<Integer> queries = java.util.stream.IntStream.rangeClosed(1, 22).boxed().toList();
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--sf": scale = Double.parseDouble(value); i++; break;
        case "--runs": runs = Integer.parseInt(value); i++; break;
        case "--cap-seconds": cap = Integer.parseInt(value); i++; break;
        case "--duckdb-threads": threads = Integer.parseInt(value); i++; break;
        case "--duckdb-memory": duckDbMemory = value; i++; break;
        case "--batch-rows": batchRows = Integer.parseInt(value); i++; break;
        case "--work": work = Path.of(value); i++; break;
        case "--out": out = Path.of(value); i++; break;
        case "--streamed": streamed = true; break;
        case "--recorded": streamed = false; break;
        case "--queries":
          queries = java.util.Arrays.stream(value.split(",")).map(String::trim).map(Integer::valueOf).toList();
          i++;
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i] + "; use --sf N --runs N --cap-seconds N"
              + " --duckdb-threads N --duckdb-memory 5GB --batch-rows N --work DIR --out FILE --queries 1,6 --streamed --recorded");
      }
    }
    if (out == null) {
      String suffix = scale == 1 ? "" : "-sf" + (scale == Math.rint(scale) ? String.valueOf((long) scale)
          : String.valueOf(scale));
      out = TpchBenchmark.projectRoot().resolve("verification").resolve("bench-tpch" + suffix + ".md");
    }
    if (work == null) {
      work = TpchBenchmark.projectRoot().resolve("lake-it").resolve("target").resolve("bench")
          .resolve("run-" + System.currentTimeMillis());
    }
    return new BenchmarkOptions(scale, runs, cap, threads, duckDbMemory, batchRows, work.toAbsolutePath(), out.toAbsolutePath(),
        queries, streamed != null ? streamed : scale >= 5);
  }
}
