package dev.lake.it.tpch;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * How fast a statement run whole by the vectorized executor reaches a client (issue 19's columnar results): loads
 * TPC-H lineitem at {@code args[0]} (scale factor, default 1) into a real lake server through Flight bulk ingest,
 * then times TPC-H Q1 and a vectorized aggregate with a row per order (query.executor=vectorized) through the
 * Flight SQL JDBC driver and FlightSqlClient: a warm-up, then the median of {@code args[1]} runs (default 3). Run
 * with lake-it's test class path, as {@code bin/lake bench} runs {@link TpchBenchmark}.
 */
public final class VectorResultBench {
  /** About 1.5 M result rows at SF 1 (the executor runs only subtrees with an aggregate). */
  private static final String WIDE = "SELECT l_orderkey, SUM(l_extendedprice * (1 - l_discount)) AS revenue,"
      + " MAX(l_shipdate) AS shipped FROM lineitem GROUP BY l_orderkey";

  private VectorResultBench() {}

  public static void main(String[] args) throws Exception {
    double scale = args.length > 0 ? Double.parseDouble(args[0]) : 1;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path work = Files.createTempDirectory("vector-result-bench");
    try (BufferAllocator allocator = new RootAllocator();
        LakeTestServer server = LakeTestServer.start(work.resolve("lake"), b -> { },
            Map.of("query.executor", "vectorized"));
        FlightTestClient client = server.client();
        Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
      client.ingest("lineitem", TpchArrow.reader(TpchTable.LINE_ITEM, scale, 65_536, allocator),
          FlightTestClient.create(), Map.of());
      String q1 = TpchQueries.sql(1).replaceAll("(?m)^--.*$", "").trim();
      for (String[] query : new String[][] {{"Q1", q1}, {"wide", WIDE}}) {
        System.out.println(query[0] + " plan: " + explain(jdbc, query[1]));
        long rows = TpchBenchmark.jdbcDrain(jdbc, query[1]);
        TpchBenchmark.flightDrain(client, query[1]);
        long[] viaJdbc = new long[runs];
        long[] viaFlight = new long[runs];
        for (int i = 0; i < runs; i++) {
          long start = System.nanoTime();
          TpchBenchmark.jdbcDrain(jdbc, query[1]);
          viaJdbc[i] = System.nanoTime() - start;
          start = System.nanoTime();
          TpchBenchmark.flightDrain(client, query[1]);
          viaFlight[i] = System.nanoTime() - start;
        }
        System.out.printf(Locale.ROOT, "%s rows=%d jdbc median %.0f ms, flight median %.0f ms (runs %s / %s)%n",
            query[0], rows, median(viaJdbc) / 1e6, median(viaFlight) / 1e6, millis(viaJdbc), millis(viaFlight));
      }
    }
    System.exit(0);
  }

  private static double median(long[] samples) {
    long[] sorted = samples.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static String millis(long[] samples) {
    return Arrays.toString(Arrays.stream(samples).map(s -> s / 1_000_000).toArray());
  }

  private static String explain(Connection jdbc, String sql) throws Exception {
    try (Statement statement = jdbc.createStatement();
        ResultSet result = statement.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      return result.next() ? result.getString(1) : "";
    }
  }

}
