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
 * Probe (not a test): a paused leader (issue 18). Three {@code bin/lake server} processes on dynoxide + s3proxy with
 * short leases; client threads stream ingests (each with its own idempotency key, to two tables) through the two
 * nodes that are not paused, while the current leader is paused with SIGSTOP for longer than its lease and resumed
 * with SIGCONT, round after round. Every ingest that was not acknowledged is retried with the same key on the other
 * node. Reports, and checks: acknowledged ingests, lost (acknowledged but absent) and duplicated ones (must be 0),
 * storage commits by a node that was not the leader (Lance commits in the resumed node's log before it leads again;
 * must be 0), answers seen (never INTERNAL), and the longest write stall per fault (an ingest in flight during the
 * pause, from its first attempt to its acknowledgement). Run by {@code verification/probes/pause-resume.sh}; exit
 * code 0 when all hold.
 *
 * <p>Arguments: {@code --rounds N} (3), {@code --clients N} (4), {@code --pause-ms N} (8000), {@code --dir DIR}.
 */
public final class PauseResumeProbe {
  private static final int ROWS = 50;
  private static final List<String> TABLES = List.of("orders", "clicks");
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
  /** Acknowledged rows absent from / present more than once in the registered version (node-1's answer). */
  private final AtomicInteger lost = new AtomicInteger();
  private final AtomicInteger duplicated = new AtomicInteger();

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
    int clients = Integer.parseInt(opts.getOrDefault("clients", "4"));
    long pauseMs = Long.parseLong(opts.getOrDefault("pause-ms", "8000"));
    Path dir = opts.containsKey("dir") ? Path.of(opts.get("dir")) : Files.createTempDirectory("lake-pause");
    System.exit(new PauseResumeProbe().run(rounds, clients, pauseMs, dir));
  }

  /** Ingests started (nanoTime) and how long each took to be acknowledged (ms), for the stall per fault. */
  private final Map<String, long[]> timings = new ConcurrentHashMap<>();
  /** The node that is paused now (writers avoid it): -1 when none. */
  private final AtomicInteger pausedNode = new AtomicInteger(-1);

  int run(int rounds, int clientCount, long pauseMs, Path dir) throws Exception {
    System.out.printf("pause-resume probe: rounds=%d clients=%d pause=%d ms lease=%s%n", rounds, clientCount, pauseMs,
        new TreeMap<>(ClusterNodes.PROCESS_LEASE));
    int storageCommitsByNonLeader = 0;
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
            long t0 = System.nanoTime();
            if (ingestWithRetries(cluster, home, TABLES.get(id % TABLES.size()), rows, key, false)) {
              acknowledged.put(key, rows);
              timings.put(key, new long[] {t0, (System.nanoTime() - t0) / 1_000_000});
            }
          }
          return null;
        }));
      }
      for (int k = 0; k < rounds; k++) {
        Thread.sleep(4000); // let the load run between faults (the probe's pacing, not synchronization)
        int victim = cluster.awaitLeader(Duration.ofSeconds(60));
        long term = cluster.status(victim).orElseThrow().get("term").asLong();
        int ackedBefore = acknowledged.size();
        pausedNode.set(victim);
        long t0 = System.nanoTime();
        cluster.signal(victim, "STOP");
        Thread.sleep(pauseMs); // the fault's length
        int linesBefore = cluster.output(victim).size();
        cluster.signal(victim, "CONT");
        long t1 = System.nanoTime();
        int next = cluster.awaitNewLeader(victim, term, Duration.ofSeconds(60));
        long newTerm = cluster.status(next).orElseThrow().get("term").asLong();
        Thread.sleep(3000); // let the resumed node process what it had queued
        pausedNode.set(-1);
        List<String> after = cluster.output(victim);
        int commits = 0;
        for (String line : after.subList(linesBefore, after.size())) {
          if (line.contains("leader node=" + ProbeCluster.nodeId(victim) + " ")) {
            break;
          }
          if (line.contains("LanceCommits") || line.contains("CommitRule")) {
            commits++;
            System.out.println("  storage commit by a non-leader: " + line);
          }
        }
        storageCommitsByNonLeader += commits;
        long stall = 0;
        int inFlight = 0;
        for (long[] t : timings.values()) {
          long end = t[0] + t[1] * 1_000_000;
          if (t[0] < t1 && end > t0) {
            inFlight++;
            stall = Math.max(stall, t[1]);
          }
        }
        String line = String.format("fault %d: SIGSTOP %s (leader, term %d) for %d ms after %d acknowledged ingests; "
            + "%s leads at term %d; %d ingests in flight during the pause, longest write stall %d ms; storage "
            + "commits by the resumed node while not the leader: %d", k + 1, ProbeCluster.nodeId(victim), term,
            pauseMs, ackedBefore, ProbeCluster.nodeId(next), newTerm, inFlight, stall, commits);
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
          if (n == 0) {
            Map<Long, Integer> counts = new HashMap<>();
            values.forEach(v -> counts.merge(v, 1, Integer::sum));
            for (long v : expected) {
              int seen = counts.getOrDefault(v, 0);
              if (seen == 0) {
                lost.incrementAndGet();
              } else if (seen > 1) {
                duplicated.incrementAndGet();
              }
            }
          }
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
    killLog.forEach(System.out::println);
    if (storageCommitsByNonLeader > 0) {
      violations.add(storageCommitsByNonLeader + " storage commit(s) by a node that was not the leader");
    }
    if (answers.containsKey("INTERNAL")) {
      violations.add(answers.get("INTERNAL") + " write(s) answered INTERNAL");
    }
    System.out.printf("SUMMARY: acknowledged=%d lost=%d duplicated=%d storageCommitsByNonLeader=%d%n",
        acknowledged.size(), lost.get(), duplicated.get(), storageCommitsByNonLeader);
    if (violations.isEmpty()) {
      System.out.println("RESULT: OK - " + acknowledged.size() + " ingests, each present exactly once after "
          + rounds + " leader pauses; no storage commit by a non-leader; every version the registry names is "
          + "readable");
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
      if (node == pausedNode.get()) {
        node = (node + 1) % cluster.size(); // a client of the paused process itself waits for it: use another node
      }
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
