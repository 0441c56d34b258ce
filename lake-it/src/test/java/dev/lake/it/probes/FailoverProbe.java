package dev.lake.it.probes;

import dev.lake.it.support.ClusterNodes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.Status;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Probe (not a test): failover loses nothing. Three {@code bin/lake server} processes on dynoxide + s3proxy with
 * short leases; client threads stream ingests (each with its own idempotency key, to two tables) through all nodes
 * while the current leader is killed with SIGKILL, again and again (each victim is restarted with its id and data
 * directory and rejoins as a follower). Every ingest that was not acknowledged is retried with the same key on
 * another node. Checks: every ingest is present exactly once, nothing else is, and every version the registry
 * names (registered or in history) is readable on every node. Run by {@code verification/probes/failover.sh};
 * exit code 0 when all hold.
 *
 * <p>Arguments: {@code --kills N} (3), {@code --clients N} (4), {@code --dir DIR}.
 */
public final class FailoverProbe {
  private static final int ROWS = 50;
  private static final List<String> TABLES = List.of("orders", "clicks");
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int kills = Integer.parseInt(opts.getOrDefault("kills", "3"));
    int clients = Integer.parseInt(opts.getOrDefault("clients", "4"));
    Path dir = opts.containsKey("dir") ? Path.of(opts.get("dir")) : Files.createTempDirectory("lake-failover");
    System.exit(new FailoverProbe().run(kills, clients, dir));
  }

  int run(int kills, int clientCount, Path dir) throws Exception {
    System.out.printf("failover probe: kills=%d clients=%d lease=%s%n", kills, clientCount,
        new TreeMap<>(ClusterNodes.PROCESS_LEASE));
    long started = System.nanoTime();
    Map<String, List<Long>> acknowledged = new ConcurrentHashMap<>();
    List<String> killLog = new ArrayList<>();
    try (ProbeCluster cluster = new ProbeCluster(dir, 3, ClusterNodes.PROCESS_LEASE);
        MetaStore registry = cluster.registryView()) {
      int leader = cluster.awaitLeader(Duration.ofSeconds(30));
      for (String t : TABLES) {
        ingestWithRetries(cluster, leader, t, List.of(-1L), "create-" + t, true);
        acknowledged.put("create-" + t, List.of(-1L));
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger sequence = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(clientCount);
      List<Future<?>> workers = new ArrayList<>();
      for (int c = 0; c < clientCount; c++) {
        int home = c % cluster.size();
        workers.add(pool.submit(() -> {
          while (!stop.get()) {
            int id = sequence.incrementAndGet();
            List<Long> rows = new ArrayList<>();
            for (int i = 0; i < ROWS; i++) {
              rows.add((long) id * 1000 + i);
            }
            String key = "ingest-" + id;
            if (ingestWithRetries(cluster, home, TABLES.get(id % TABLES.size()), rows, key, false)) {
              acknowledged.put(key, rows);
            }
          }
          return null;
        }));
      }
      for (int k = 0; k < kills; k++) {
        Thread.sleep(4000); // let the load run between kills (the probe's pacing, not synchronization)
        int victim = cluster.awaitLeader(Duration.ofSeconds(60));
        long term = cluster.status(victim).orElseThrow().get("term").asLong();
        int ackedBefore = acknowledged.size();
        long t0 = System.nanoTime();
        cluster.kill(victim);
        int next = cluster.awaitNewLeader(victim, term, Duration.ofSeconds(60));
        long failoverMs = (System.nanoTime() - t0) / 1_000_000;
        long newTerm = cluster.status(next).orElseThrow().get("term").asLong();
        cluster.start(victim); // it rejoins as a follower
        String line = String.format("kill %d: SIGKILL %s (leader, term %d) after %d acknowledged ingests; "
            + "%s leads at term %d after %d ms; %s restarted", k + 1, ProbeCluster.nodeId(victim), term, ackedBefore,
            ProbeCluster.nodeId(next), newTerm, failoverMs, ProbeCluster.nodeId(victim));
        killLog.add(line);
        System.out.println(line);
      }
      Thread.sleep(3000);
      stop.set(true);
      for (Future<?> w : workers) {
        w.get(300, TimeUnit.SECONDS);
      }
      pool.shutdown();

      // Exactly once, everywhere, at the registered version; every named version readable.
      for (String t : TABLES) {
        List<Long> expected = new ArrayList<>();
        AtomicInteger ingests = new AtomicInteger();
        acknowledged.forEach((key, rows) -> {
          if (key.startsWith("create-" + t) || (key.startsWith("ingest-")
              && TABLES.get(Integer.parseInt(key.substring(7)) % TABLES.size()).equals(t))) {
            expected.addAll(rows);
            ingests.incrementAndGet();
          }
        });
        Collections.sort(expected);
        TableRegistration r = registry.get(t).orElseThrow();
        List<VersionRecord> history = registry.history(t, r.generation());
        for (int n = 0; n < cluster.size(); n++) {
          FlightTestClient client = cluster.client(n);
          List<Long> values = client.rows("SELECT v FROM \"" + t + "@v" + r.version() + "\"").stream()
              .map(row -> (Long) row.get(0)).sorted().toList();
          if (!values.equals(expected)) {
            violations.add(t + " via " + ProbeCluster.nodeId(n) + ": " + values.size() + " rows at version "
                + r.version() + ", expected " + expected.size() + " (every acknowledged ingest once)");
          }
          for (VersionRecord v : history) {
            try {
              client.rows("SELECT COUNT(*) FROM \"" + t + "@v" + v.version() + "\"");
            } catch (Exception e) {
              violations.add(t + " version " + v.version() + " is named by the registry but unreadable via "
                  + ProbeCluster.nodeId(n) + ": " + e.getMessage());
            }
          }
        }
        System.out.printf("%s: version %d, %d rows (%d ingests incl. the create), %d history versions, all readable "
            + "on 3 nodes%n", t, r.version(), expected.size(), ingests.get(), history.size());
      }
    }
    System.out.printf("answers before an ingest was acknowledged (retried with the same key): %s%n",
        new TreeMap<>(counts()));
    System.out.printf("probe took %d s%n", (System.nanoTime() - started) / 1_000_000_000);
    if (violations.isEmpty()) {
      System.out.println("RESULT: OK - " + acknowledged.size() + " ingests, each present exactly once after "
          + kills + " leader kills; every version the registry names is readable");
      return 0;
    }
    System.out.println("RESULT: " + violations.size() + " VIOLATION(S)");
    violations.forEach(v -> System.out.println("  " + v));
    return 1;
  }

  /** Retries on the next node after UNAVAILABLE / UNKNOWN / a dead node, until acknowledged (bounded: 120 s). */
  private boolean ingestWithRetries(ProbeCluster cluster, int home, String table, List<Long> rows, String key,
      boolean create) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    int node = home;
    while (System.nanoTime() < deadline) {
      FlightTestClient client = cluster.client(node);
      if (client != null) {
        try {
          long n = ClusterNodes.ingest(client, table, rows.get(0), rows.size(),
              create ? FlightTestClient.create() : FlightTestClient.append(), key);
          if (n != rows.size()) {
            violations.add(key + ": acknowledged " + n + " rows, sent " + rows.size());
          }
          return true;
        } catch (RuntimeException e) {
          String code = code(e);
          answers.computeIfAbsent(code, c -> new AtomicInteger()).incrementAndGet();
          if (!List.of("UNAVAILABLE", "UNKNOWN", "ABORTED", "NOT_FLIGHT").contains(code)) {
            violations.add(key + ": unexpected answer " + code + ": " + e.getMessage());
            return false;
          }
        }
      }
      node = (node + 1) % cluster.size();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    violations.add(key + ": never acknowledged within 120 s");
    return false;
  }

  private Map<String, Integer> counts() {
    Map<String, Integer> out = new HashMap<>();
    answers.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  private static String code(Throwable t) {
    try {
      return Status.code(t);
    } catch (AssertionError notFlight) {
      return "NOT_FLIGHT";
    }
  }
}
