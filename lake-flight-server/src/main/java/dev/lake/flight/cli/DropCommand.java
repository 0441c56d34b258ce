package dev.lake.flight.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code lake drop T}: drops a table ({@code lake.drop_table}; needs role admin). */
@Command(name = "drop", mixinStandardHelpOptions = true,
    description = "Drop a table (admin). Its data is removed after gc.drop-grace.")
public final class DropCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table")
  String table;

  @Override
  void run(LakeClient client, PrintWriter out) throws Exception {
    JsonNode r = client.action("lake.drop_table", Map.of("table", table));
    out.printf("dropped %s (generation %s, last version %d)%n", r.path("table").asText(),
        r.path("generation").asText(), r.path("version").asLong());
  }
}
