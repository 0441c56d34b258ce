package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.it.support.ClusterNodes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.Poll;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.it.support.ServerProcess;
import dev.lake.it.support.Status;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import dev.lake.registry.dynamodb.Dynoxide;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * design.md invariant 10 under leader failover, with real processes: three {@code bin/lake server} nodes over one
 * DynamoDB registry (dynoxide) and one S3 data root (s3proxy), short lease timings. Three client threads stream
 * ingests (each with its own {@code lake.idempotency_key}) through all nodes; the leader is killed with SIGKILL
 * while they run; every unacknowledged ingest is retried (same key) on another node. Afterwards every ingest is
 * present exactly once, and every version the registry names (registered or in history) is readable.
 */
class ClusterFailoverTest {
  private static final int CLIENTS = 3;
  private static final int INGESTS_PER_CLIENT = 24;
  private static final int ROWS = 10;
  private static final List<String> TABLES = List.of("events", "metrics");

  @TempDir
  Path dir;

  @Test
  void threeNodeFailoverLosesNoAcknowledgedWrite() throws Exception {
    String registry = "lake-failover-" + UUID.randomUUID();
    List<ServerProcess> servers = new CopyOnWriteArrayList<>();
    try (S3ProxyServer s3 = S3ProxyServer.start("lake-failover");
        Dynoxide dynamoDb = Dynoxide.start()) {
      // Three nodes, started together (the first campaign decides the leader).
      List<CompletableFuture<ServerProcess>> starting = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        String node = "node-" + i;
        Map<String, String> env = new HashMap<>(ClusterNodes.asEnvironment(ClusterNodes.node(s3, "failover",
            dynamoDb, registry, node, ClusterNodes.PROCESS_LEASE)));
        env.put("LAKE_CATALOG_TTL", "1s");
        env.put("LAKE_JAVA_OPTS", "-Xmx512m");
        Path data = dir.resolve(node);
        starting.add(CompletableFuture.supplyAsync(() -> {
          try {
            return ServerProcess.start(env, "--node-id", node, "--port", "0", "--data-dir", data.toString());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }));
      }
      for (CompletableFuture<ServerProcess> s : starting) {
        servers.add(s.get(240, TimeUnit.SECONDS));
      }
      List<FlightTestClient> clients = new ArrayList<>();
      try {
        for (ServerProcess s : servers) {
          clients.add(FlightTestClient.connect(s.port(), "lake", "lake"));
        }
        AtomicReference<String> leader = new AtomicReference<>();
        Poll.until(Duration.ofSeconds(30), "a leader was elected", () -> {
          leader.set(leaderOf(clients.get(0)));
          return leader.get() != null;
        });
        long firstTerm = ClusterNodes.status(clients.get(0)).get("term").asLong();
        for (String t : TABLES) {
          retryIngest(clients, 0, t, -ROWS, ROWS, "create-" + t, true, new ConcurrentHashMap<>());
        }

        // The workload: CLIENTS threads, each streaming its ingests through "its" node, retrying elsewhere.
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicInteger acknowledgedAfterKill = new AtomicInteger();
        AtomicReference<String> killed = new AtomicReference<>();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> work = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          int client = c;
          work.add(pool.submit(() -> {
            for (int i = 0; i < INGESTS_PER_CLIENT; i++) {
              int id = client * 1000 + i;
              retryIngest(clients, client, TABLES.get(id % 2), (long) id * ROWS, ROWS, "ingest-" + id, false,
                  outcomes);
              acknowledged.incrementAndGet();
              if (killed.get() != null) {
                acknowledgedAfterKill.incrementAndGet();
              }
            }
            return null;
          }));
        }
        // Kill the leader (SIGKILL to its JVM) once a third of the ingests were acknowledged, while they run.
        Poll.until(Duration.ofSeconds(120), "a third of the ingests were acknowledged",
            () -> acknowledged.get() >= CLIENTS * INGESTS_PER_CLIENT / 3);
        String victim = leaderOf(clients.get(0));
        int victimIndex = Integer.parseInt(victim.substring("node-".length())) - 1;
        servers.get(victimIndex).jvm().destroyForcibly();
        killed.set(victim);
        long killedAt = System.nanoTime();
        for (Future<?> f : work) {
          f.get(300, TimeUnit.SECONDS);
        }
        pool.shutdown();
        long failoverMillis = (System.nanoTime() - killedAt) / 1_000_000;

        // A new leader in a higher term, among the survivors.
        int survivor = (victimIndex + 1) % 3;
        JsonNode status = ClusterNodes.status(clients.get(survivor));
        assertThat(status.get("leader_id").asText()).isNotEqualTo(victim);
        assertThat(status.get("term").asLong()).isGreaterThan(firstTerm);
        assertThat(acknowledgedAfterKill.get()).as("ingests went on after the kill").isPositive();

        // Every ingest exactly once; every version the registry names is readable.
        try (MetaStore view = ClusterNodes.registryView(dynamoDb, registry)) {
          for (String t : TABLES) {
            List<Long> expected = new ArrayList<>();
            for (long v = -ROWS; v < 0; v++) {
              expected.add(v);
            }
            for (int c = 0; c < CLIENTS; c++) {
              for (int i = 0; i < INGESTS_PER_CLIENT; i++) {
                int id = c * 1000 + i;
                if (TABLES.get(id % 2).equals(t)) {
                  for (long v = (long) id * ROWS; v < (long) id * ROWS + ROWS; v++) {
                    expected.add(v);
                  }
                }
              }
            }
            TableRegistration r = view.get(t).orElseThrow();
            for (int s = 0; s < 3; s++) {
              if (s == victimIndex) {
                continue;
              }
              List<Long> values = clients.get(s).rows("SELECT v FROM \"" + t + "@v" + r.version() + "\"").stream()
                  .map(row -> (Long) row.get(0)).toList();
              assertThat(values).as("%s via node-%d", t, s + 1).containsExactlyInAnyOrderElementsOf(expected);
            }
            for (VersionRecord v : view.history(t, r.generation())) {
              assertThat(clients.get(survivor).count("\"" + t + "@v" + v.version() + "\""))
                  .as("%s version %d is readable", t, v.version()).isPositive();
            }
          }
        }
        System.out.printf("failover: victim=%s term %d -> %d, outcomes before success %s, %d acknowledged after the "
            + "kill, all done %d ms after it%n", victim, firstTerm, status.get("term").asLong(), new TreeMap<>(
            Collections.unmodifiableMap(counts(outcomes))), acknowledgedAfterKill.get(), failoverMillis);
      } finally {
        for (FlightTestClient c : clients) {
          try {
            c.close();
          } catch (Exception e) {
            // a client of the killed node
          }
        }
        for (ServerProcess s : servers) {
          try {
            s.close();
          } catch (Exception e) {
            s.process().destroyForcibly();
          }
        }
      }
    }
  }

  /** The leader's id as {@code client}'s node sees it in the lease item, or null. */
  private static String leaderOf(FlightTestClient client) {
    JsonNode status = ClusterNodes.status(client);
    return status.hasNonNull("leader_id") ? status.get("leader_id").asText() : null;
  }

  /**
   * Ingests rows {@code first..first+count-1} with {@code key}, starting at node {@code preferred} and moving to the
   * next node after each failure (UNAVAILABLE, UNKNOWN, or a node that is gone), until acknowledged (bounded).
   */
  private static void retryIngest(List<FlightTestClient> clients, int preferred, String table, long first, int count,
      String key, boolean create, Map<String, AtomicInteger> outcomes) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    int node = preferred;
    while (true) {
      try {
        long rows = ClusterNodes.ingest(clients.get(node), table, first, count,
            create ? FlightTestClient.create() : FlightTestClient.append(), key);
        assertThat(rows).as("the acknowledged row count of %s", key).isEqualTo(count);
        return;
      } catch (RuntimeException e) {
        String code = code(e);
        outcomes.computeIfAbsent(code, k -> new AtomicInteger()).incrementAndGet();
        if (!List.of("UNAVAILABLE", "UNKNOWN", "ABORTED").contains(code) || System.nanoTime() > deadline) {
          throw new AssertionError("ingest " + key + " failed with " + code + " on node-" + (node + 1), e);
        }
        node = (node + 1) % clients.size();
        try {
          Thread.sleep(100); // back off before retrying (a client's retry policy, not synchronization)
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new AssertionError(ie);
        }
      }
    }
  }

  private static String code(Throwable t) {
    try {
      return Status.code(t);
    } catch (AssertionError notFlight) {
      return "NOT_FLIGHT:" + t.getClass().getSimpleName();
    }
  }

  private static Map<String, Integer> counts(Map<String, AtomicInteger> outcomes) {
    Map<String, Integer> out = new HashMap<>();
    outcomes.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }
}
