package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.tpch.Answers;
import dev.lake.it.tpch.DuckDbReference;
import dev.lake.it.tpch.TpchArrow;
import dev.lake.it.tpch.TpchQueries;
import io.micrometer.core.instrument.MeterRegistry;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22: operators whose state outgrows the query's memory limit spill to local disk instead of failing. TPC-H
 * SF 0.1 is loaded once; Q9, Q18, Q21 and a sort of most of lineitem run on a node without a tight limit, then on the
 * same data with {@code query.memory-limit} 10 MB: the same answers, each query spilled (the spill counters grew),
 * and the spill directory is empty after each — also after a query that failed because its spill budget
 * ({@code query.spill-limit}) was spent too.
 */
class SpillTest {
  private static final double SCALE = 0.1;
  private static final int BATCH_ROWS = 8_192;
  /**
   * Every lineitem row, sorted by Calcite's runtime (a UNION ALL of two scans: no single-table subtree to push down),
   * returned whole.
   */
  private static final String BIG_SORT = "SELECT l_orderkey, l_linenumber, l_extendedprice FROM lineitem"
      + " WHERE l_shipdate < DATE '1995-06-17' UNION ALL SELECT l_orderkey, l_linenumber, l_extendedprice"
      + " FROM lineitem WHERE l_shipdate >= DATE '1995-06-17' ORDER BY 3 DESC, 1, 2";
  /** Both nodes run every subtree they can vectorized (under auto, aggregates of many groups go to Lance's SQL). */
  private static final Map<String, String> VECTORIZED = Map.of("query.executor", "vectorized");

  @TempDir
  Path dir;

  @Test
  void joinsAggregatesAndSortsSpillWithinBudget() throws Exception {
    Path data = dir.resolve("data");
    Path spill = data.resolve("spill");
    Map<String, String> queries = new LinkedHashMap<>();
    for (int q : new int[] {9, 18, 21}) {
      queries.put("Q" + q, TpchQueries.sql(q));
    }
    queries.put("big sort", BIG_SORT);
    Map<String, List<List<Object>>> unlimited = new LinkedHashMap<>();
    try (LakeTestServer server = LakeTestServer.start(data, b -> { }, VECTORIZED);
        FlightTestClient loader = server.client()) {
      for (TpchTable<?> table : TpchTable.getTables()) {
        loader.ingest(table.getTableName(), TpchArrow.reader(table, SCALE, BATCH_ROWS, loader.allocator()),
            FlightTestClient.create(), Map.of());
      }
      try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
        for (Map.Entry<String, String> query : queries.entrySet()) {
          unlimited.put(query.getKey(), rows(jdbc, query.getValue()));
        }
      }
      assertThat(spilled(server)).as("bytes spilled without a tight memory limit").isZero();
    }

    Map<String, String> limited = new LinkedHashMap<>(VECTORIZED);
    limited.put("query.memory-limit", "10MB");
    try (LakeTestServer server = LakeTestServer.start(data, b -> { }, limited);
        Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
      for (Map.Entry<String, String> query : queries.entrySet()) {
        String name = query.getKey();
        double before = spilled(server);
        List<List<Object>> answered = rows(jdbc, query.getValue());
        List<List<Object>> expected = unlimited.get(name);
        if (name.startsWith("Q")) {
          assertThat(Answers.difference(answered, expected, TpchQueries.orderBy(Integer.parseInt(name.substring(1)))))
              .as("%s at 10 MB against the unlimited run", name).isEmpty();
        } else {
          assertThat(answered).as("%s at 10 MB against the unlimited run", name).isEqualTo(expected);
        }
        assertThat(spilled(server)).as("bytes %s spilled", name).isGreaterThan(before);
        assertThat(files(spill)).as("spill files left after %s", name).isEmpty();
        System.out.printf("SpillTest: %s spilled %.0f bytes at query.memory-limit=10MB%n", name,
            spilled(server) - before);
      }
    }

    limited.put("query.spill-limit", "1MB");
    try (LakeTestServer server = LakeTestServer.start(data, b -> { }, limited);
        Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
      Throwable failed = catchThrowable(() -> rows(jdbc, TpchQueries.sql(9)));
      assertThat(failed).as("Q9 with 10 MB of memory and 1 MB of spill disk").isNotNull();
      assertThat(failed).hasMessageContaining("query.spill-limit");
      assertThat(spilled(server)).as("it spilled before its spill budget ran out").isGreaterThan(0);
      // the server closes the query's resources as it answers the failure: give it a bounded moment
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
      while (!files(spill).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(files(spill)).as("spill files left after the failed query").isEmpty();
    }
  }

  private static double spilled(LakeTestServer server) {
    MeterRegistry meters = server.server().metrics().registry();
    return meters.get("lake.query.spill.bytes").functionCounter().count();
  }

  private static List<Path> files(Path spill) throws IOException {
    if (!Files.exists(spill)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(spill)) {
      return walk.filter(path -> !path.equals(spill)).toList();
    }
  }

  private static List<List<Object>> rows(Connection jdbc, String sql) throws Exception {
    try (Statement statement = jdbc.createStatement(); ResultSet result = statement.executeQuery(sql)) {
      return DuckDbReference.JdbcRows.read(result);
    }
  }
}
