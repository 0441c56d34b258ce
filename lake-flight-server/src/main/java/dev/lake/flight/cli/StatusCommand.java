package dev.lake.flight.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code lake status}: a node's view of the cluster from {@code lake.status} (this node, the leader, its term and
 * lease expiry, the nodes with their last heartbeat), printed as JSON.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Print a node's view of the cluster: leader, term, lease expiry, nodes (lake.status), as JSON.")
public final class StatusCommand implements Callable<Integer> {
  @Mixin
  ConnectionOptions connection;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    try (LakeClient client = LakeClient.connect(connection.resolve(System.getenv()))) {
      JsonNode status = client.action("lake.status", Map.of());
      spec.commandLine().getOut().println(new ObjectMapper().writerWithDefaultPrettyPrinter()
          .writeValueAsString(status));
      spec.commandLine().getOut().flush();
      return CliErrors.OK;
    }
  }
}
