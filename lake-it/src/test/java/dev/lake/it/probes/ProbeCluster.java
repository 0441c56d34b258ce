package dev.lake.it.probes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.it.support.ClusterNodes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.it.support.ServerProcess;
import dev.lake.registry.MetaStore;
import dev.lake.registry.dynamodb.Dynoxide;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Real processes for the cluster probes: s3proxy (in this JVM) and dynoxide (a child process) as S3 and DynamoDB,
 * and N {@code bin/lake server} nodes on them with the given lease timings. Nodes can be killed (SIGKILL), stopped
 * (SIGSTOP) and continued (SIGCONT), and restarted with the same id and data directory.
 */
final class ProbeCluster implements AutoCloseable {
  final S3ProxyServer s3;
  final Dynoxide dynamoDb;
  final String registry = "lake-probe-" + UUID.randomUUID();
  private final Path dir;
  private final Map<String, String> lease;
  private final ServerProcess[] servers;
  private final FlightTestClient[] clients;

  ProbeCluster(Path dir, int nodes, Map<String, String> lease) throws Exception {
    this.dir = dir;
    this.lease = lease;
    this.s3 = S3ProxyServer.start("lake-probe");
    this.dynamoDb = Dynoxide.start();
    this.servers = new ServerProcess[nodes];
    this.clients = new FlightTestClient[nodes];
    List<CompletableFuture<Void>> starting = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      int n = i;
      starting.add(CompletableFuture.runAsync(() -> start(n)));
    }
    for (CompletableFuture<Void> s : starting) {
      s.get(300, TimeUnit.SECONDS);
    }
  }

  int size() {
    return servers.length;
  }

  static String nodeId(int i) {
    return "node-" + (i + 1);
  }

  static int index(String nodeId) {
    return Integer.parseInt(nodeId.substring("node-".length())) - 1;
  }

  /** (Re)starts node {@code i} with its id and data directory. */
  void start(int i) {
    try {
      Map<String, String> env = new HashMap<>(ClusterNodes.asEnvironment(ClusterNodes.node(s3, "probe", dynamoDb,
          registry, nodeId(i), lease)));
      env.put("LAKE_CATALOG_TTL", "1s");
      env.put("LAKE_JAVA_OPTS", "-Xmx512m");
      servers[i] = ServerProcess.start(env, "--node-id", nodeId(i), "--port", "0", "--data-dir",
          dir.resolve(nodeId(i)).toString());
      clients[i] = FlightTestClient.connect(servers[i].port(), "lake", "lake");
    } catch (Exception e) {
      throw new IllegalStateException("node " + nodeId(i) + " did not start", e);
    }
  }

  FlightTestClient client(int i) {
    return clients[i];
  }

  boolean alive(int i) {
    return servers[i] != null && servers[i].process().isAlive();
  }

  long pid(int i) {
    return servers[i].jvm().pid();
  }

  /** Everything node {@code i} printed so far. */
  List<String> output(int i) {
    return servers[i].output();
  }

  /** SIGKILL to node {@code i}'s JVM; waits until it is gone. */
  void kill(int i) throws Exception {
    ProcessHandle jvm = servers[i].jvm();
    jvm.destroyForcibly();
    jvm.onExit().get(30, TimeUnit.SECONDS);
    servers[i].process().waitFor(30, TimeUnit.SECONDS);
    closeClient(i);
  }

  void signal(int i, String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid(i))).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + pid(i) + " failed");
    }
  }

  /** The lease holder as node {@code i} reads it in {@code lake.status}. */
  Optional<JsonNode> status(int i) {
    try {
      return Optional.of(ClusterNodes.status(clients[i]));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The node whose write gate is open, asked of every live node; waits (bounded) until there is one. */
  int awaitLeader(Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < servers.length; i++) {
        if (alive(i)) {
          Optional<JsonNode> s = status(i);
          if (s.isPresent() && s.get().path("leader").asBoolean(false)) {
            return i;
          }
        }
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("no leader within " + limit);
  }

  /** Waits until a live node other than {@code old} holds the lease at a term above {@code oldTerm}. */
  int awaitNewLeader(int old, long oldTerm, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < servers.length; i++) {
        if (i != old && alive(i)) {
          Optional<JsonNode> s = status(i);
          if (s.isPresent() && s.get().path("leader").asBoolean(false) && s.get().path("term").asLong() > oldTerm) {
            return i;
          }
        }
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("no new leader within " + limit);
  }

  MetaStore registryView() {
    return ClusterNodes.registryView(dynamoDb, registry);
  }

  private void closeClient(int i) {
    try {
      if (clients[i] != null) {
        clients[i].close();
      }
    } catch (Exception e) {
      // the node is gone
    }
    clients[i] = null;
  }

  @Override
  public void close() throws Exception {
    for (int i = 0; i < servers.length; i++) {
      closeClient(i);
      if (servers[i] != null && servers[i].process().isAlive()) {
        try {
          signal(i, "CONT");
        } catch (Exception e) {
          // not stopped
        }
        try {
          servers[i].close();
        } catch (Exception e) {
          servers[i].process().destroyForcibly();
        }
      }
    }
    dynamoDb.close();
    s3.close();
  }
}
