package dev.lake.flight.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code lake tables}: the server's tables, one name a line (Flight SQL GetTables). */
@Command(name = "tables", mixinStandardHelpOptions = true, description = "List the tables, one name a line.")
public final class TablesCommand extends ClientCommand {
  @Override
  void run(LakeClient client, PrintWriter out) throws Exception {
    List<String> names = client.tables();
    names.stream().sorted().forEach(out::println);
  }
}
