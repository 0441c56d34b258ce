package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.ConfiguredServer;
import dev.lake.it.support.ConfiguredServer.TestUser;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeCli;
import dev.lake.it.support.ServerProcess;
import dev.lake.it.support.TestCertificates;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/lake} client commands against a real server, each run as its own process the way a user runs them:
 * files written by DuckDB (Parquet), by hand (CSV) and by Arrow's IPC writer are ingested and read back.
 */
class CliTest {
  /** A plain progress line: percentage, rows of total, bytes, rate and ETA. */
  private static final Pattern PROGRESS = Pattern.compile(
      "^\\s*\\d+\\.\\d% [\\d,]+/[\\d,]+ rows  [\\d.]+ (B|KiB|MiB)  [\\d,]+ rows/s  .*/s  ETA \\d+:\\d\\d$");
  private static final LocalDate EPOCH = LocalDate.of(2024, 1, 1);

  @TempDir
  Path dir;

  @Test
  void cliIngestsParquetCsvAndArrowWithProgress() throws Exception {
    Path parquet = writeParquet(dir.resolve("part1.parquet"), 0, 5000);
    Path csv = writeCsv(dir.resolve("part2.csv"), 5000, 3000);
    Path arrow = writeArrow(dir.resolve("part3.arrow"), 8000, 2000);
    LakeCli cli = LakeCli.project();
    try (ServerProcess server = ServerProcess.start("--data-dir", dir.resolve("data").toString(), "--port", "0")) {
      String port = Integer.toString(server.port());
      LakeCli.Result first = cli.run("ingest", parquet.toString(), "--table", "events", "--port", port,
          "--batch-rows", "1000", "--progress-interval", "0s");
      assertThat(first.exitCode()).as("%s", first).isZero();
      assertThat(first.stdout()).as("%s", first).contains("reading part1.parquet (parquet, ")
          .contains("ingested 5,000 rows");
      assertThat(first.lines().stream().filter(l -> PROGRESS.matcher(l).matches()).count())
          .as("progress lines (one per 1,000-row batch):%n%s", first).isGreaterThanOrEqualTo(5);
      assertThat(first.lines()).as("%s", first).anyMatch(l -> l.contains("100.0% 5,000/5,000 rows"));

      LakeCli.Result more = cli.run("ingest", csv.toString(), arrow.toString(), "--table", "events", "--mode",
          "append", "--port", port, "--batch-rows", "1000", "--progress-interval", "0s");
      assertThat(more.exitCode()).as("%s", more).isZero();
      assertThat(more.stdout()).as("%s", more).contains("reading part2.csv (csv, ")
          .contains("reading part3.arrow (arrow_ipc, ").contains("100.0% 5,000/5,000 rows")
          .contains("ingested 5,000 rows");

      try (FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
        List<String> rows = new ArrayList<>();
        for (List<Object> row : client.rows("SELECT id, name, score, on_day FROM events")) {
          rows.add(text(row));
        }
        assertThat(rows).as("every row of the three files, read back").containsExactlyInAnyOrderElementsOf(
            expected(0, 10_000));
      }

      LakeCli.Result described = cli.run("describe", "events", "--port", port);
      assertThat(described.exitCode()).as("%s", described).isZero();
      assertThat(described.stdout()).contains("version:     2").contains("rows:        10,000")
          .containsPattern("score\\s+DOUBLE").containsPattern("on_day\\s+DATE").containsPattern("id\\s+BIGINT")
          .doesNotContain("FloatingPoint").contains("version 1  registered");
      // the SQL shell starts without the JDBC driver's java.util.logging INFO lines
      LakeCli.Result shell = cli.runWithInput("SELECT 1 AS one;\n!quit\n", "sql",
          "jdbc:arrow-flight-sql://127.0.0.1:" + port + "/?useEncryption=false");
      assertThat(shell.stdout() + shell.stderr()).as("%s", shell).contains("1 row selected")
          .doesNotContain("INFO:").doesNotContain("Debug mode disabled");
      LakeCli.Result tables = cli.run("tables", "--port", port);
      assertThat(tables.lines()).as("%s", tables).containsExactly("events");

      LakeCli.Result again = cli.run("ingest", csv.toString(), "--table", "events", "--port", port);
      assertThat(again.exitCode()).as("the table exists: a server error; %s", again).isEqualTo(1);
      assertThat(again.stderr()).as("%s", again)
          .isEqualToIgnoringNewLines("lake ingest: the server answered ALREADY_EXISTS: table 'events' already exists");
      LakeCli.Result usage = cli.run("ingest", csv.toString(), "--port", port);
      assertThat(usage.exitCode()).as("no --table: a usage error; %s", usage).isEqualTo(2);
      assertThat(usage.stderr()).contains("Missing required option: '--table=<table>'");
      LakeCli.Result missing = cli.run("ingest", dir.resolve("nope.parquet").toString(), "-t", "x", "--port", port);
      assertThat(missing.exitCode()).as("%s", missing).isEqualTo(2);
      assertThat(missing.stderr()).contains("cannot read").contains("nope.parquet");
      LakeCli.Result nobody = cli.run("tables", "--port", Integer.toString(freePort()));
      assertThat(nobody.exitCode()).as("%s", nobody).isEqualTo(1);
      assertThat(nobody.stderr()).as("%s", nobody).startsWith("lake tables: cannot reach the server (")
          .contains("Connection refused");
      assertThat(again.stderr() + usage.stderr() + missing.stderr() + nobody.stderr()).as("no stack traces")
          .doesNotContain("\tat ");
      LakeCli.Result status = cli.run("status", "--url", "grpc://127.0.0.1:" + port);
      assertThat(status.exitCode()).as("%s", status).isZero();
      assertThat(status.stdout()).contains("\"leader\" : true").contains("\"node\" : \"node-1\"");
      LakeCli.Result maintained = cli.run("maintain", "events", "--port", port);
      assertThat(maintained.exitCode()).as("%s", maintained).isZero();
      assertThat(maintained.stdout()).startsWith("events: ").contains("orphan files deleted");
      LakeCli.Result dropped = cli.run("drop", "events", "--port", port);
      assertThat(dropped.exitCode()).as("%s", dropped).isZero();
      assertThat(dropped.stdout()).startsWith("dropped events (generation ");
      assertThat(cli.run("tables", "--port", port).lines()).as("no tables left").isEmpty();
      assertThat(server.stop()).isZero();
    }
  }

  /** The client commands over TLS with a private CA, as a configured user; a role the server refuses is exit 1. */
  @Test
  void cliCommandsUseTlsAndTheGivenUser() throws Exception {
    TestCertificates ca = TestCertificates.authority(dir.resolve("pki"), "lake-test");
    TestCertificates.Pem cert = ca.server("server");
    Path csv = writeCsv(dir.resolve("few.csv"), 0, 10);
    List<TestUser> users = List.of(new TestUser("rita", "rita-pw", "reader"), new TestUser("walt", "walt-pw", "writer"));
    try (ConfiguredServer lake = ConfiguredServer.start(dir.resolve("data"), users, Map.of(
        "server.tls.cert-chain", cert.chain().toString(), "server.tls.private-key", cert.key().toString()), b -> { })) {
      String url = "grpc+tls://localhost:" + lake.port();
      LakeCli walt = LakeCli.at(ServerProcess.projectRoot().resolve("bin/lake"), env -> {
        env.put("LAKE_USER", "walt");
        env.put("LAKE_PASSWORD", "walt-pw");
      });
      LakeCli.Result ingested = walt.run("ingest", csv.toString(), "-t", "few", "--url", url, "--tls-root-certs",
          ca.caFile().toString());
      assertThat(ingested.exitCode()).as("%s", ingested).isZero();
      assertThat(ingested.stdout()).contains("ingested 10 rows");
      LakeCli.Result untrusted = walt.run("tables", "--url", url);
      assertThat(untrusted.exitCode()).as("the server's CA is not trusted: %s", untrusted).isEqualTo(1);
      assertThat(untrusted.stderr()).as("%s", untrusted).contains("certificate").doesNotContain("\tat ");
      LakeCli.Result dropped = walt.run("drop", "few", "--url", url, "--tls-root-certs", ca.caFile().toString());
      assertThat(dropped.exitCode()).as("%s", dropped).isEqualTo(1);
      assertThat(dropped.stderr()).as("%s", dropped).startsWith("lake drop: the server answered PERMISSION_DENIED: "
          + "user 'walt' may not drop tables");
      LakeCli.Result listed = LakeCli.project().run("tables", "--host", "localhost", "--port",
          Integer.toString(lake.port()), "--tls-root-certs", ca.caFile().toString(), "--user", "rita", "--password",
          "rita-pw");
      assertThat(listed.exitCode()).as("%s", listed).isZero();
      assertThat(listed.lines()).containsExactly("few");
    }
  }

  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static String text(List<Object> row) {
    Object day = row.get(3); // DateDayVector.getObject gives the epoch day
    LocalDate date = day instanceof Integer days ? LocalDate.ofEpochDay(days) : ((LocalDateTime) day).toLocalDate();
    return ((Number) row.get(0)).longValue() + "|" + row.get(1) + "|" + ((Number) row.get(2)).doubleValue() + "|"
        + date;
  }

  private static List<String> expected(int from, int count) {
    List<String> rows = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      rows.add(i + "|name-" + i + "|" + (i * 0.5) + "|" + EPOCH.plusDays(i % 1000));
    }
    return rows;
  }

  /** Parquet written by DuckDB (a different writer than lake's Arrow stack). */
  private static Path writeParquet(Path file, int from, int count) throws Exception {
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = duck.createStatement()) {
      st.execute("COPY (SELECT i AS id, 'name-' || i AS name, CAST(i AS DOUBLE) * 0.5 AS score, "
          + "CAST(DATE '2024-01-01' + CAST(i % 1000 AS INTEGER) AS DATE) AS on_day FROM range(" + from + ", "
          + (from + count) + ") t(i)) TO '" + file + "' (FORMAT PARQUET)");
    }
    assertThat(file).exists();
    return file;
  }

  private static Path writeCsv(Path file, int from, int count) throws Exception {
    StringBuilder s = new StringBuilder("id,name,score,on_day\n");
    for (int i = from; i < from + count; i++) {
      s.append(i).append(",name-").append(i).append(',').append(i * 0.5).append(',')
          .append(EPOCH.plusDays(i % 1000)).append('\n');
    }
    Files.writeString(file, s, StandardCharsets.UTF_8);
    return file;
  }

  /** An Arrow IPC file (the random-access format) written with Arrow's own writer, in two record batches. */
  private static Path writeArrow(Path file, int from, int count) throws Exception {
    Schema schema = new Schema(List.of(
        Field.nullable("id", new ArrowType.Int(64, true)),
        Field.nullable("name", ArrowType.Utf8.INSTANCE),
        Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        Field.nullable("on_day", new ArrowType.Date(DateUnit.DAY))));
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        FileOutputStream out = new FileOutputStream(file.toFile());
        ArrowFileWriter writer = new ArrowFileWriter(root, null, out.getChannel())) {
      writer.start();
      int half = count / 2;
      for (int[] range : new int[][] {{from, half}, {from + half, count - half}}) {
        root.allocateNew();
        for (int r = 0; r < range[1]; r++) {
          int i = range[0] + r;
          ((BigIntVector) root.getVector("id")).setSafe(r, i);
          ((VarCharVector) root.getVector("name")).setSafe(r, ("name-" + i).getBytes(StandardCharsets.UTF_8));
          ((Float8Vector) root.getVector("score")).setSafe(r, i * 0.5);
          ((DateDayVector) root.getVector("on_day")).setSafe(r, (int) EPOCH.plusDays(i % 1000).toEpochDay());
        }
        root.setRowCount(range[1]);
        writer.writeBatch();
      }
      writer.end();
    }
    return file;
  }
}
