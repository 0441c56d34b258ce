package dev.lake.flight.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code lake tables}: the server's tables, one name a line (Flight SQL GetTables). */
@Command(name = "tables", mixinStandardHelpOptions = true, description = "List the tables, one name a line.")
public final class TablesCommand implements Callable<Integer> {
  @Mixin
  ConnectionOptions connection;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    try (LakeClient client = LakeClient.connect(connection.resolve(System.getenv()))) {
      List<String> names = client.tables();
      names.stream().sorted().forEach(spec.commandLine().getOut()::println);
      spec.commandLine().getOut().flush();
      return CliErrors.OK;
    }
  }
}
