package dev.lake.it.tpch;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.NamespaceClient;
import dev.lake.it.support.SparkSql;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code bin/lake bench spark --sf 1}: TPC-H Q1 and Q6 through Apache Spark ({@code local[2]}, lance-spark 0.4.0,
 * reading lake's tables through lake's Lance REST Namespace with {@code dev.lake.spark.LakeCatalog}) against the same
 * queries through lake's own Flight SQL, on the same data in the same run (docs/operations.md, "When one node is not
 * enough"). Loads lineitem into one in-process lake node through Flight bulk ingest, starts Spark in a child JVM
 * (lake-it's {@code SparkSql}), checks that both answer the same, then times a warm-up and {@code --runs}
 * interleaved runs (lake, Spark, lake, Spark, ...) and prints the medians and their ratio with the machine's load
 * average; also writes them to {@code --out} (default {@code verification/bench-spark.md}).
 *
 * <p>Spark's statements compare {@code l_shipdate} as text: lance-spark 0.4.0 pushes a DATE literal down in a form
 * Lance rejects (docs/operations.md, "Known edges"), so Spark filters the date itself; the other predicates push down.
 * Spark's time is its own (parse, plan, scan, aggregate, collect), as its runner reports it; lake's is a
 * FlightSqlClient's execute plus reading every batch.
 */
public final class SparkVsLake {
  static final String Q1_SPARK = "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, "
      + "sum(l_extendedprice) AS sum_base_price, sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, "
      + "sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge, avg(l_quantity) AS avg_qty, "
      + "avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order "
      + "FROM lake.main.lineitem WHERE CAST(l_shipdate AS STRING) <= '1998-09-02' "
      + "GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus";
  static final String Q6_SPARK = "SELECT sum(l_extendedprice * l_discount) AS revenue FROM lake.main.lineitem "
      + "WHERE CAST(l_shipdate AS STRING) >= '1994-01-01' AND CAST(l_shipdate AS STRING) < '1995-01-01' "
      + "AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24";

  private SparkVsLake() {}

  public static void main(String[] args) throws Exception {
    double scale = 1;
    int runs = 3;
    Path work = null;
    Path out = TpchBenchmark.projectRoot().resolve("verification").resolve("bench-spark.md");
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--sf": scale = Double.parseDouble(value); i++; break;
        case "--runs": runs = Integer.parseInt(value); i++; break;
        case "--work": work = Path.of(value); i++; break;
        case "--out": out = Path.of(value); i++; break;
        default: throw new IllegalArgumentException("unknown option " + args[i]
            + "; use --sf N --runs N --work DIR --out FILE");
      }
    }
    if (work == null) {
      work = TpchBenchmark.projectRoot().resolve("lake-it").resolve("target").resolve("bench")
          .resolve("spark-" + System.currentTimeMillis());
    }
    Files.createDirectories(work);
    String report = run(scale, runs, work.toAbsolutePath());
    System.out.println(report);
    Files.writeString(out, report, StandardCharsets.UTF_8);
    System.out.println("written to " + out);
    // The Flight client leaves non-daemon threads behind; the figures are written.
    System.exit(0);
  }

  private static String load() throws Exception {
    return Files.readString(Path.of("/proc/loadavg")).strip();
  }

  private static void log(String line) {
    System.err.println(Instant.now() + " " + line);
  }

  static String run(double scale, int runs, Path work) throws Exception {
    String loadStart = load();
    StringBuilder md = new StringBuilder();
    try (BufferAllocator allocator = new RootAllocator();
        LakeTestServer server = LakeTestServer.start(work.resolve("lake"), b -> {},
            Map.of("namespace.enabled", "true", "namespace.port", "0"));
        FlightTestClient client = server.client()) {
      long loadNanos = BenchClock.time(() -> client.ingest("lineitem",
          TpchArrow.reader(TpchTable.LINE_ITEM, scale, 65_536, allocator), FlightTestClient.create(), Map.of()));
      long rows = count(client);
      log("loaded lineitem rows=" + rows + " in " + loadNanos / 1_000_000 + " ms");
      Map<String, String> conf = new LinkedHashMap<>();
      String p = "spark.sql.catalog.lake";
      conf.put(p, "dev.lake.spark.LakeCatalog");
      conf.put(p + ".impl", "rest");
      conf.put(p + ".uri", "http://127.0.0.1:" + server.server().namespacePort().orElseThrow());
      conf.put(p + ".header.Authorization", NamespaceClient.bearer(server.port(), "lake", "lake"));
      long sparkStart = System.nanoTime();
      try (SparkSql spark = SparkSql.start(work, conf)) {
        long startMs = (System.nanoTime() - sparkStart) / 1_000_000;
        log("Spark started in " + startMs + " ms");
        md.append("# Spark (through lake's Lance REST Namespace) vs lake's Flight SQL: TPC-H Q1 and Q6\n\n")
            .append("Written by `bin/lake bench spark --sf ").append(fmt(scale)).append(" --runs ").append(runs)
            .append("` at ").append(Instant.now()).append(". lineitem: ").append(rows).append(" rows, loaded through ")
            .append("Flight bulk ingest in ").append(loadNanos / 1_000_000).append(" ms. One lake node in process ")
            .append("(RocksDB registry, local Lance); Spark 3.5.9 `local[2]` in a child JVM (-Xmx1g), lance-spark ")
            .append("0.4.0 through `dev.lake.spark.LakeCatalog`, started in ").append(startMs).append(" ms. Each ")
            .append("query: one warm-up per path, then ").append(runs).append(" interleaved runs (lake, Spark, ...);")
            .append(" medians in ms. Load average (/proc/loadavg) at the start: `").append(loadStart).append("`.\n\n")
            .append("| query | answers agree | lake Flight SQL (ms) | Spark via namespace (ms) | Spark / lake |\n")
            .append("|---|---|---|---|---|\n");
        for (int q : new int[] {1, 6}) {
          String lakeSql = TpchQueries.sql(q);
          String sparkSql = q == 1 ? Q1_SPARK : Q6_SPARK;
          List<List<String>> lakeRows = lakeRows(client, lakeSql);
          SparkSql.Answer first = spark.sql(sparkSql);
          if (first.failed()) {
            throw new IllegalStateException("Spark failed Q" + q + ": " + first.error());
          }
          String agree = agree(lakeRows, first.rows());
          log("Q" + q + " answers agree: " + agree);
          Samples lake = new Samples();
          Samples sparkMs = new Samples();
          lakeRows(client, lakeSql); // lake's own warm-up (its first run above checked the answer)
          for (int r = 0; r < runs; r++) {
            long lakeNanos = BenchClock.time(() -> lakeRows(client, lakeSql));
            lake.add(lakeNanos);
            SparkSql.Answer a = spark.sql(sparkSql);
            if (a.failed()) {
              throw new IllegalStateException("Spark failed Q" + q + ": " + a.error());
            }
            sparkMs.add(sparkMillis(a.status()) * 1_000_000L);
            log("Q" + q + " run " + (r + 1) + ": lake " + fmt(lakeNanos / 1e6) + " ms, Spark " + a.status());
          }
          md.append("| Q").append(q).append(" | ").append(agree).append(" | ").append(fmt(lake.median()))
              .append(" | ").append(fmt(sparkMs.median())).append(" | ")
              .append(String.format("%.1fx", sparkMs.median() / lake.median())).append(" |\n");
        }
      }
    }
    md.append("\nLoad average at the end: `").append(load()).append("` (2 cores, shared with other work).\n");
    return md.toString();
  }

  private static long sparkMillis(String status) {
    // "-- OK 4 row(s) in 812 ms"
    String[] words = status.trim().split("\\s+");
    return Long.parseLong(words[words.length - 2]);
  }

  private static long count(FlightTestClient client) throws Exception {
    long[] n = new long[1];
    client.query("SELECT count(*) FROM lineitem", root -> n[0] = ((Number) root.getVector(0).getObject(0))
        .longValue());
    return n[0];
  }

  private static List<List<String>> lakeRows(FlightTestClient client, String sql) throws Exception {
    List<List<String>> out = new ArrayList<>();
    client.query(sql, root -> {
      for (int r = 0; r < root.getRowCount(); r++) {
        List<String> row = new ArrayList<>();
        for (FieldVector v : root.getFieldVectors()) {
          Object value = v.getObject(r);
          row.add(value == null ? "NULL" : value.toString());
        }
        out.add(row);
      }
    });
    return out;
  }

  /** "yes" when every value agrees (numbers to 12 significant digits: the averages' scales differ). */
  static String agree(List<List<String>> lake, List<List<String>> spark) {
    if (lake.size() != spark.size()) {
      return "no: " + lake.size() + " vs " + spark.size() + " rows";
    }
    for (int r = 0; r < lake.size(); r++) {
      List<String> a = lake.get(r);
      List<String> b = spark.get(r);
      if (a.size() != b.size()) {
        return "no: row " + r + " has " + a.size() + " vs " + b.size() + " columns";
      }
      for (int c = 0; c < a.size(); c++) {
        if (!same(a.get(c), b.get(c))) {
          return "no: row " + r + " column " + c + ": " + a.get(c) + " vs " + b.get(c);
        }
      }
    }
    return "yes";
  }

  private static boolean same(String a, String b) {
    try {
      MathContext digits = new MathContext(12);
      return new BigDecimal(a).round(digits).compareTo(new BigDecimal(b).round(digits)) == 0;
    } catch (NumberFormatException e) {
      return a.equals(b);
    }
  }

  private static String fmt(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.format("%.1f", v);
  }
}
