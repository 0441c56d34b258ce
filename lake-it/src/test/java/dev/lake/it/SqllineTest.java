package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import java.io.File;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.arrow.driver.jdbc.ArrowFlightJdbcDriver;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's sqlline session against lake, run as a user runs it: sqlline 1.12.0 and the Flight SQL JDBC driver in
 * their own JVM, fed a script.
 */
class SqllineTest {
  private static final long TIMEOUT_SECONDS = 120;

  @TempDir
  Path dir;

  @Test
  void sqllineSessionListsTablesAndQueries() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dir.resolve("data"))) {
      try (FlightTestClient client = server.client(); VectorSchemaRoot rows = fruits(client)) {
        assertThat(client.ingest("fruits", rows, FlightTestClient.create())).isEqualTo(3);
      }
      Path script = dir.resolve("session.sql");
      Files.writeString(script, String.join("\n",
          "!connect " + server.jdbcUrl() + " lake lake",
          "!tables",
          "!columns fruits",
          "SELECT id, name, price FROM fruits WHERE id >= 2 ORDER BY id DESC;",
          "!quit",
          ""), StandardCharsets.UTF_8);

      Result run = sqlline(script);
      String out = run.output();

      assertThat(run.exitCode()).as("sqlline exit code; output:%n%s", out).isZero();
      assertThat(out.lines().filter(l -> l.contains("Error:") || l.contains("Exception")).toList())
          .as("error lines in sqlline's output:%n%s", out).isEmpty();
      // !tables: the table in lake.main, of type TABLE.
      assertThat(out).as("!tables lists fruits").containsPattern(row("lake", "main", "fruits", "TABLE"));
      // !columns: every column with its JDBC type code, lake's type name, size and (for price) scale.
      assertThat(out).as("!columns fruits")
          .containsPattern(row("lake", "main", "fruits", "id", "-5", "BIGINT", "19", "null", "0"));
      assertThat(out).as("!columns fruits").containsPattern(row("lake", "main", "fruits", "name", "12", "VARCHAR"));
      assertThat(out).as("!columns fruits")
          .containsPattern(row("lake", "main", "fruits", "price", "3", "DECIMAL", "10", "null", "2"));
      // The query: header, the two selected rows in ORDER BY order, and nothing else.
      assertThat(out).as("query header").containsPattern(row("ID", "NAME", "PRICE").pattern() + "|"
          + row("id", "name", "price").pattern());
      assertThat(out).as("query rows").containsPattern(row("3", "cherry", "12.00"));
      assertThat(out).as("query rows").containsPattern(row("2", "banana", "0.50"));
      assertThat(out.indexOf("cherry")).as("ORDER BY id DESC").isLessThan(out.indexOf("banana"));
      assertThat(out).as("the WHERE clause excluded apple").doesNotContain("apple");
      assertThat(out).contains("2 rows selected");
    }
  }

  /** A table-format row holding these cells in order (other cells may sit between them). */
  private static Pattern row(String... cells) {
    StringBuilder regex = new StringBuilder("\\|");
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        regex.append("(?:[^\\n]*\\|)?");
      }
      regex.append("[ \\t]*").append(Pattern.quote(cells[i])).append("[ \\t]*\\|");
    }
    return Pattern.compile(regex.toString());
  }

  private record Result(int exitCode, String output) {}

  /** Runs {@code sqlline -f script} in a child JVM, bounded by {@link #TIMEOUT_SECONDS}. */
  private Result sqlline(Path script) throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Path output = dir.resolve("sqlline.out");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-Duser.timezone=UTC",
        "-Duser.home=" + home,
        "-Djava.io.tmpdir=" + tmp,
        "-Xmx256m",
        "-cp", String.join(File.pathSeparator, sqllineClasspath()),
        "sqlline.SqlLine",
        "--maxWidth=10000",
        "--outputFormat=table",
        "-f", script.toString()));
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(output.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Files.createFile(dir.resolve("empty.in")).toFile()))
        .start();
    try {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError("sqlline did not finish within " + TIMEOUT_SECONDS + " s; output so far:\n"
            + Files.readString(output, StandardCharsets.UTF_8));
      }
    } finally {
      process.destroyForcibly();
    }
    return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }

  /** sqlline, its jline jars and the JDBC driver, taken from this test's classpath. */
  private static List<String> sqllineClasspath() throws URISyntaxException {
    Set<String> jars = new LinkedHashSet<>();
    jars.add(jarOf(sqlline.SqlLine.class));
    jars.add(jarOf(ArrowFlightJdbcDriver.class));
    jars.add(jarOf(org.jline.reader.LineReader.class));
    jars.add(jarOf(org.jline.terminal.Terminal.class));
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (Path.of(entry).getFileName().toString().startsWith("jline-")) {
        jars.add(entry);
      }
    }
    return List.copyOf(jars);
  }

  private static String jarOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  private static VectorSchemaRoot fruits(FlightTestClient client) {
    Schema schema = new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        Field.nullable("name", new ArrowType.Utf8()),
        Field.nullable("price", new ArrowType.Decimal(10, 2, 128))));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator());
    root.allocateNew();
    String[] names = {"apple", "banana", "cherry"};
    String[] prices = {"1.25", "0.50", "12.00"};
    for (int i = 0; i < 3; i++) {
      ((BigIntVector) root.getVector("id")).setSafe(i, i + 1);
      ((VarCharVector) root.getVector("name")).setSafe(i, names[i].getBytes(StandardCharsets.UTF_8));
      ((DecimalVector) root.getVector("price")).setSafe(i, new BigDecimal(prices[i]));
    }
    root.setRowCount(3);
    return root;
  }
}
