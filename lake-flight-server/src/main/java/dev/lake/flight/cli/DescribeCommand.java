package dev.lake.flight.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lake describe T}: schema, generation, version and history from {@code lake.describe_table}, and the row
 * count from {@code SELECT COUNT(*)} at the version the server reads.
 */
@Command(name = "describe", mixinStandardHelpOptions = true,
    description = "Show a table's columns, generation, version, row count and version history.")
public final class DescribeCommand extends ClientCommand {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Parameters(index = "0", paramLabel = "TABLE", description = "the table")
  String table;

  @Option(names = "--json", description = "print the result as JSON")
  boolean json;

  @Override
  void run(LakeClient client, PrintWriter out) throws Exception {
    JsonNode d = client.action("lake.describe_table", Map.of("table", table));
    long rows = ((Number) client.rows("SELECT COUNT(*) FROM " + quote(d.path("table").asText(table)))
        .get(0).get(0)).longValue();
    ((ObjectNode) d).put("row_count", rows);
    if (json) {
      out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(d));
    } else {
      print(out, d);
    }
  }

  private static void print(PrintWriter out, JsonNode d) {
    out.printf("table:       %s%n", d.path("table").asText());
    out.printf("generation:  %s%n", d.path("generation").asText());
    out.printf("version:     %d%n", d.path("version").asLong());
    out.printf("rows:        %,d%n", d.path("row_count").asLong());
    out.printf("created at:  %s%n", d.path("created_at").asText());
    out.printf("updated at:  %s%n", d.path("updated_at").asText());
    out.println("columns:");
    int width = 4;
    for (JsonNode c : d.path("columns")) {
      width = Math.max(width, c.path("name").asText().length());
    }
    for (JsonNode c : d.path("columns")) {
      out.printf("  %-" + width + "s  %s%s%n", c.path("name").asText(), c.path("type").asText(),
          c.path("nullable").asBoolean() ? "" : " NOT NULL");
    }
    out.println("history:");
    for (JsonNode v : d.path("history")) {
      out.printf("  version %d  registered %s%n", v.path("version").asLong(), v.path("registered_at").asText());
    }
  }

  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
