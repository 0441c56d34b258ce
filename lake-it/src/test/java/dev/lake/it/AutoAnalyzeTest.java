package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Poll;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code query.auto-analyze}: a node sketches the columns of every version it registers in the background, after
 * acknowledging the write, and keeps the sketches under {@code data.dir/statistics} — so a node restarted right after
 * a load (no query has run yet) plans its first query without sketching, and answers as without the analysis; what
 * a stop left unanalyzed is analyzed after the restart.
 */
class AutoAnalyzeTest {
  private static final double SCALE = 0.01;
  private static final List<TpchTable<?>> TABLES = List.of(TpchTable.PART, TpchTable.SUPPLIER,
      TpchTable.PART_SUPPLIER, TpchTable.NATION, TpchTable.REGION);

  @Test
  void loadedTablesAreAnalyzedSoTheFirstQueryAfterARestartSketchesNothing(@TempDir Path analyzed,
      @TempDir Path plain) throws Exception {
    String q2 = TpchQueries.sql(2);
    AtomicReference<CountingSqlEngine> engine = new AtomicReference<>();
    // the same load without the analysis: the reference answer, and the statements a warm run executes
    load(plain, engine, "false");
    List<List<Object>> answer;
    long warmRun;
    try (LakeTestServer server = start(plain, engine, "false");
        Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
      answer = rows(jdbc, q2);
      long before = engine.get().statements();
      assertThat(rows(jdbc, q2)).isEqualTo(answer);
      warmRun = engine.get().statements() - before;
    }

    load(analyzed, engine, "true");

    try (LakeTestServer server = start(analyzed, engine, "true");
        Connection jdbc = DriverManager.getConnection(server.jdbcUrl())) {
      long before = engine.get().statements();
      assertThat(rows(jdbc, q2)).isEqualTo(answer);
      // planned afresh, but with the analysis' sketches: no statement beyond what a warm execution runs
      assertThat(engine.get().statements() - before).isEqualTo(warmRun);
    }
  }

  @Test
  void tablesLeftUnanalyzedAreAnalyzedAfterARestart(@TempDir Path dataDir) throws Exception {
    AtomicReference<CountingSqlEngine> engine = new AtomicReference<>();
    // loaded by a node without the analysis (or stopped before it finished): nothing is kept
    load(dataDir, engine, "false");
    Path kept = dataDir.resolve("statistics").resolve("distinct-values.txt");
    assertThat(keptLines(kept)).isZero();
    try (LakeTestServer server = start(dataDir, engine, "true")) {
      // the restarted node queues every registered table at start-up and analyzes it in the background
      Poll.until(Duration.ofSeconds(60), "every registered column analyzed", () -> keptLines(kept) >= 28);
    }
  }

  private static void load(Path dataDir, AtomicReference<CountingSqlEngine> engine, String autoAnalyze)
      throws Exception {
    try (LakeTestServer server = start(dataDir, engine, autoAnalyze); FlightTestClient client = server.client()) {
      for (TpchTable<?> table : TABLES) {
        client.ingest(table.getTableName(), TpchArrow.reader(table, SCALE, 8_192, client.allocator()),
            FlightTestClient.create(), Map.of());
      }
      if (autoAnalyze.equals("true")) {
        // every column of the five tables (part 9, supplier 7, partsupp 5, nation 4, region 3), before the stop
        Path kept = dataDir.resolve("statistics").resolve("distinct-values.txt");
        Poll.until(Duration.ofSeconds(60), "every loaded column analyzed", () -> keptLines(kept) >= 28);
      }
    }
  }

  private static long keptLines(Path kept) {
    try {
      return Files.exists(kept) ? Files.readAllLines(kept).stream().filter(line -> !line.isBlank()).count() : 0;
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  private static LakeTestServer start(Path dataDir, AtomicReference<CountingSqlEngine> engine, String autoAnalyze)
      throws Exception {
    return LakeTestServer.start(dataDir, builder -> builder.wrapEngine(real -> {
      CountingSqlEngine counting = new CountingSqlEngine(real);
      engine.set(counting);
      return counting;
    }), Map.of("query.auto-analyze", autoAnalyze));
  }

  private static List<List<Object>> rows(Connection jdbc, String sql) throws Exception {
    try (Statement statement = jdbc.createStatement(); ResultSet result = statement.executeQuery(sql)) {
      return DuckDbReference.JdbcRows.read(result);
    }
  }
}
