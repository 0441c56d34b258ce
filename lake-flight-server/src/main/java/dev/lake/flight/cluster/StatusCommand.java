package dev.lake.flight.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.concurrent.Callable;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lake status}: asks a node for {@code lake.status} (this node, the leader, its term and lease expiry, the
 * nodes with their last heartbeat) and prints the JSON. The password is read from {@code LAKE_PASSWORD} (default
 * {@code lake}, the built-in user's).
 */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Print a node's view of the cluster: leader, term, lease expiry, nodes (lake.status).")
public final class StatusCommand implements Callable<Integer> {
  @Option(names = "--host", description = "the node's Flight SQL host (default 127.0.0.1)")
  String host = "127.0.0.1";

  @Option(names = "--port", description = "its port (default 32010)")
  int port = 32010;

  @Option(names = "--user", description = "user name (default lake); the password comes from LAKE_PASSWORD")
  String user = "lake";

  @Override
  public Integer call() throws Exception {
    String password = System.getenv().getOrDefault("LAKE_PASSWORD", "lake");
    try (BufferAllocator allocator = new RootAllocator();
        FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure(host, port)).build()) {
      CredentialCallOption auth = client.authenticateBasicToken(user, password)
          .orElseThrow(() -> new IllegalStateException("the node returned no bearer token"));
      Iterator<Result> results = client.doAction(new Action("lake.status", "{}".getBytes(StandardCharsets.UTF_8)),
          auth);
      ObjectMapper json = new ObjectMapper();
      while (results.hasNext()) {
        System.out.println(json.writerWithDefaultPrettyPrinter().writeValueAsString(
            json.readTree(results.next().getBody())));
      }
      return 0;
    } catch (FlightRuntimeException e) {
      System.err.println("lake: status from " + host + ":" + port + " failed: " + e.status().code() + ": "
          + e.getMessage());
      return 1;
    }
  }
}
