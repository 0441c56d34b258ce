package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.tpch.CountingSqlEngine;
import dev.lake.it.tpch.DuckDbReference;
import dev.lake.it.tpch.TpchArrow;
import dev.lake.it.tpch.TpchQueries;
import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node restarted over the same data directory plans with the distinct-value sketches it made before (kept under
 * {@code data.dir/statistics}) instead of sketching its tables again, and answers the same (what changed data does
 * to kept sketches: {@code DistinctValueEstimatesTest} in lake-query).
 */
class StatisticsAcrossRestartTest {
  private static final double SCALE = 0.01;

  @Test
  void statisticsAreKeptAcrossARestart(@TempDir Path dataDir) throws Exception {
    String q2 = TpchQueries.sql(2);
    long firstRun;
    long secondRun;
    List<List<Object>> answer;
    AtomicReference<CountingSqlEngine> engine = new AtomicReference<>();
    try (LakeTestServer server = start(dataDir, engine); FlightTestClient client = server.client();
        Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
      for (TpchTable<?> table : List.of(TpchTable.PART, TpchTable.SUPPLIER, TpchTable.PART_SUPPLIER,
          TpchTable.NATION, TpchTable.REGION)) {
        client.ingest(table.getTableName(), TpchArrow.reader(table, SCALE, 8_192, client.allocator()),
            FlightTestClient.create(), Map.of());
      }
      long before = engine.get().statements();
      answer = rows(jdbc, q2);
      firstRun = engine.get().statements() - before;
      before = engine.get().statements();
      assertThat(rows(jdbc, q2)).isEqualTo(answer);
      secondRun = engine.get().statements() - before;
    }
    // the first run sketched (Lance SQL statements the second, planned from the cache, did not run)
    assertThat(firstRun).isGreaterThan(secondRun);
    assertThat(Files.readAllLines(dataDir.resolve("statistics").resolve("distinct-values.txt"))).isNotEmpty();

    try (LakeTestServer server = start(dataDir, engine);
        Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
      long before = engine.get().statements();
      assertThat(rows(jdbc, q2)).isEqualTo(answer);
      // planned afresh (a new plan cache), but with the kept sketches: no statement beyond what execution runs
      assertThat(engine.get().statements() - before).isEqualTo(secondRun);
    }
  }

  private static LakeTestServer start(Path dataDir, AtomicReference<CountingSqlEngine> engine) throws Exception {
    return LakeTestServer.start(dataDir, builder -> builder.wrapEngine(real -> {
      CountingSqlEngine counting = new CountingSqlEngine(real);
      engine.set(counting);
      return counting;
    }));
  }

  private static List<List<Object>> rows(Connection jdbc, String sql) throws Exception {
    try (Statement statement = jdbc.createStatement(); ResultSet result = statement.executeQuery(sql)) {
      return DuckDbReference.JdbcRows.read(result);
    }
  }
}
