package dev.lake.flight.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lake drop T}: drops a table ({@code lake.drop_table}; needs role admin). */
@Command(name = "drop", mixinStandardHelpOptions = true,
    description = "Drop a table (admin). Its data is removed after gc.drop-grace.")
public final class DropCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table")
  String table;

  @Mixin
  ConnectionOptions connection;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    try (LakeClient client = LakeClient.connect(connection.resolve(System.getenv()))) {
      JsonNode r = client.action("lake.drop_table", Map.of("table", table));
      spec.commandLine().getOut().printf("dropped %s (generation %s, last version %d)%n", r.path("table").asText(),
          r.path("generation").asText(), r.path("version").asLong());
      spec.commandLine().getOut().flush();
      return CliErrors.OK;
    }
  }
}
