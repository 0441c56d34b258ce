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
 * docs/design.md invariant 10 under leader failover, with real processes: three {@code bin/lake server} nodes over one
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
      List<Map<String, String>> envs = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        String node = "node-" + i;
        Map<String, String> env = new HashMap<>(ClusterNodes.asEnvironment(ClusterNodes.node(s3, "failover",
            dynamoDb, registry, node, ClusterNodes.PROCESS_LEASE)));
        env.put("LAKE_CATALOG_TTL", "1s");
        env.put("LAKE_JAVA_OPTS", "-Xmx512m");
        Path data = dir.resolve(node);
        envs.add(env);
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

        // The killed node rejoins (as a follower), then the pause round.
        String rejoining = "node-" + (victimIndex + 1);
        servers.set(victimIndex, ServerProcess.start(envs.get(victimIndex), "--node-id", rejoining, "--port", "0",
            "--data-dir", dir.resolve(rejoining).toString()));
        clients.set(victimIndex, FlightTestClient.connect(servers.get(victimIndex).port(), "lake", "lake"));
        pauseRound(servers, clients);
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

  /**
   * Issue 18: the current leader is paused with SIGSTOP for much longer than its lease while writers keep ingesting
   * through every live node, then resumed with SIGCONT. Item 1: after it resumes, the old leader makes no Lance
   * commit of any kind (its log shows none until it leads again). Item 2: no write is ever answered INTERNAL (every
   * answer is retryable: UNAVAILABLE, UNKNOWN, ABORTED) and every acknowledged ingest is present exactly once.
   * Item 3: forwarded writes follow the new leader: no ingest stalls for the whole pause (the bound asserted is
   * loose for a loaded machine; the figure is printed).
   */
  private static void pauseRound(List<ServerProcess> servers, List<FlightTestClient> clients) throws Exception {
    Duration lease = Duration.ofSeconds(3);
    Duration margin = Duration.ofSeconds(1);
    Duration pause = Duration.ofSeconds(20);
    String paused = leaderOf(clients.get(0));
    int pausedIndex = Integer.parseInt(paused.substring("node-".length())) - 1;
    // Writers use the two other nodes (a client talking to the paused process itself waits for it: no server
    // can change that); their writes are forwarded to the leader, paused or new.
    List<FlightTestClient> live = new ArrayList<>();
    for (int n = 0; n < 3; n++) {
      if (n != pausedIndex) {
        live.add(clients.get(n));
      }
    }
    ServerProcess victim = servers.get(pausedIndex);
    long term = ClusterNodes.status(clients.get(pausedIndex)).get("term").asLong();

    Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
    Map<String, Long> stallMillis = new ConcurrentHashMap<>();
    AtomicReference<Long> pausedAt = new AtomicReference<>();
    AtomicReference<Long> resumedAt = new AtomicReference<>();
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    List<Future<?>> work = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      int client = c;
      work.add(pool.submit(() -> {
        for (int i = 0; i < INGESTS_PER_CLIENT; i++) {
          int id = 50_000 + client * 1000 + i;
          long started = System.nanoTime();
          retryIngest(live, client % 2, TABLES.get(id % 2), (long) id * ROWS, ROWS, "pause-" + id, false,
              outcomes);
          long took = (System.nanoTime() - started) / 1_000_000;
          Long p = pausedAt.get();
          Long r = resumedAt.get();
          if (p != null && started < (r == null ? Long.MAX_VALUE : r) && started + took * 1_000_000 > p) {
            stallMillis.put("pause-" + id, took); // in flight while the leader was paused
          }
        }
        return null;
      }));
    }
    Poll.until(Duration.ofSeconds(60), "writes are in flight", () -> !outcomes.isEmpty()
        || work.stream().noneMatch(Future::isDone));
    Thread.sleep(1000); // let the writers run before the fault (pacing, not synchronization)
    long pid = victim.jvm().pid();
    signal("STOP", pid);
    pausedAt.set(System.nanoTime());
    Thread.sleep(pause.toMillis()); // the fault's length (not synchronization)
    int linesBeforeResume = victim.output().size();
    signal("CONT", pid);
    resumedAt.set(System.nanoTime());
    for (Future<?> f : work) {
      f.get(300, TimeUnit.SECONDS);
    }
    pool.shutdown();

    // Item 1: the resumed node committed nothing to storage while it was not the leader.
    List<String> afterResume = victim.output().subList(linesBeforeResume, victim.output().size());
    List<String> storageCommits = new ArrayList<>();
    for (String line : afterResume) {
      if (line.contains("leader node=" + paused + " ")) {
        break; // it leads again (a later term): its commits are a leader's
      }
      if (line.contains("LanceCommits") || line.contains("CommitRule") || line.contains("compaction registered")) {
        storageCommits.add(line);
      }
    }
    long newTerm = ClusterNodes.status(live.get(0)).get("term").asLong();
    long longest = stallMillis.values().stream().mapToLong(Long::longValue).max().orElse(0);
    System.out.printf("pause round: SIGSTOP %s (leader, term %d) for %d ms; term now %d; outcomes before success "
        + "%s; %d ingests in flight during the pause, longest stall %d ms (lease %s + margin %s); storage commits by "
        + "the paused node after SIGCONT: %d%n", paused, term, pause.toMillis(), newTerm,
        new TreeMap<>(counts(outcomes)), stallMillis.size(), longest, lease, margin, storageCommits.size());
    Thread.sleep(2000); // past the catalog TTL (1 s) of the node read below
    for (String t : TABLES) {
      Map<Long, Integer> seen = new HashMap<>();
      for (List<Object> row : live.get(0).rows("SELECT v FROM \"" + t + "\" WHERE v >= " + 50_000L * ROWS)) {
        seen.merge((Long) row.get(0), 1, Integer::sum);
      }
      for (int c = 0; c < CLIENTS; c++) {
        for (int i = 0; i < INGESTS_PER_CLIENT; i++) {
          int id = 50_000 + c * 1000 + i;
          if (TABLES.get(id % 2).equals(t)) {
            for (long v = (long) id * ROWS; v < (long) id * ROWS + ROWS; v++) {
              assertThat(seen.getOrDefault(v, 0)).as("%s row %d of pause-%d, acknowledged", t, v, id).isEqualTo(1);
            }
          }
        }
      }
    }
    assertThat(storageCommits).as("Lance commits by the resumed, deposed leader").isEmpty();
    assertThat(outcomes).as("no write answered INTERNAL").doesNotContainKey("INTERNAL");
    assertThat(newTerm).isGreaterThan(term);
    assertThat(stallMillis).as("ingests were in flight during the pause").isNotEmpty();
    // The figure is the measurement (target lease + margin); the bound is loose for a shared, loaded machine (14.6 s
    // was measured at load 35). The sharp check of re-routing is ClusterForwardingTest's
    // forwardingFollowsTheNewLeaderWithinTheLease (here gRPC keepalive alone would end a stalled forward at ~15 s).
    assertThat(longest).as("no ingest stalled for the whole pause").isLessThan(pause.toMillis());
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
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
