package dev.lake.flight.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code lake status}: a node's view of the cluster from {@code lake.status} (this node, the leader, its term and
 * lease expiry, the nodes with their last heartbeat), printed as JSON.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Print a node's view of the cluster: leader, term, lease expiry, nodes (lake.status), as JSON.")
public final class StatusCommand extends ClientCommand {
  @Override
  void run(LakeClient client, PrintWriter out) throws Exception {
    JsonNode status = client.action("lake.status", Map.of());
    out.println(new ObjectMapper().writerWithDefaultPrettyPrinter()
        .writeValueAsString(status));
  }
}
