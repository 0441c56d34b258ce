package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeCli;
import dev.lake.it.support.ServerProcess;
import dev.lake.it.tpch.TpchQueries;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/lake server --demo}: a new user's first start has the TPC-H tables to query, once. */
class DemoDatasetTest {
  /** Row counts of the TPC-H tables at scale factor 0.01. */
  private static final Map<String, Long> ROWS = Map.of("lineitem", 60_175L, "orders", 15_000L, "customer", 1_500L,
      "part", 2_000L, "partsupp", 8_000L, "supplier", 100L, "nation", 25L, "region", 5L);

  @TempDir
  Path dir;

  @Test
  void demoDatasetIsQueryableAfterFirstStart() throws Exception {
    String dataDir = dir.resolve("lake-data").toString();
    try (ServerProcess server = ServerProcess.start("--data-dir", dataDir, "--port", "0", "--demo")) {
      assertThat(server.startupOutput()).as("start-up output")
          .anyMatch(l -> l.startsWith("demo: loaded TPC-H (scale 0.01) tables"));
      try (FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
        for (Map.Entry<String, Long> table : ROWS.entrySet()) {
          assertThat(client.count(table.getKey())).as("rows of %s", table.getKey()).isEqualTo(table.getValue());
        }
        assertSameAnswer(client, 6);
        assertSameAnswer(client, 3);
      }
      assertThat(server.stop()).isZero();
    }
    try (ServerProcess server = ServerProcess.start("--data-dir", dataDir, "--port", "0", "--demo")) {
      try (FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
        assertThat(client.count("lineitem")).as("not loaded twice").isEqualTo(60_175);
      }
      assertThat(server.startupOutput()).as("a restart loads nothing")
          .contains("demo: the TPC-H tables are there already");
      LakeCli.Result described = LakeCli.project().run("describe", "lineitem", "--port",
          Integer.toString(server.port()));
      assertThat(described.stdout()).as("%s", described).contains("version:     1").contains("rows:        60,175");
      assertThat(server.stop()).isZero();
    }
  }

  /** Query {@code number}'s rows equal the SF 0.01 answer io.trino.tpch ships ({@code queries/qN.result}). */
  private static void assertSameAnswer(FlightTestClient client, int number) throws Exception {
    List<String> lines = resource("/io/trino/tpch/queries/q" + number + ".result").lines().toList();
    String[] types = lines.get(0).replaceFirst(".*types: ", "").split("\\|");
    List<List<Object>> actual = client.rows(TpchQueries.sql(number));
    List<String> expected = lines.subList(1, lines.size()).stream().filter(l -> !l.isBlank()).toList();
    assertThat(actual).as("Q%d rows", number).hasSameSizeAs(expected);
    for (int r = 0; r < expected.size(); r++) {
      String[] want = expected.get(r).split("\\|");
      for (int c = 0; c < types.length; c++) {
        Object got = actual.get(r).get(c);
        switch (types[c]) {
          case "DECIMAL" -> assertThat(new BigDecimal(got.toString())).as("Q%d row %d column %d", number, r, c)
              .isEqualByComparingTo(new BigDecimal(want[c]));
          case "DATE" -> assertThat(LocalDate.ofEpochDay(((Number) got).longValue()).toString())
              .as("Q%d row %d column %d", number, r, c).isEqualTo(want[c]);
          case "BIGINT", "INTEGER" -> assertThat(((Number) got).longValue()).as("Q%d row %d column %d", number, r, c)
              .isEqualTo(Long.parseLong(want[c]));
          default -> assertThat(String.valueOf(got)).as("Q%d row %d column %d", number, r, c).isEqualTo(want[c]);
        }
      }
    }
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = TpchTable.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
