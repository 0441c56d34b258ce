package dev.lake.it.probes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.it.support.ClusterNodes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.Status;
import dev.lake.it.support.TricklingReader;
import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaderLease;
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
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Probe (not a test): an expired leader must not write, not even once. Two {@code bin/lake server} processes on
 * dynoxide + s3proxy with short leases. Each round sends an ingest (with an idempotency key) straight to the
 * leader and freezes the leader with SIGSTOP while it is being written (even rounds: mid-stream, the client holding
 * its last batch back; odd rounds: after a random 0-400 ms, wherever the write happens to be, including between the
 * write gate and the registry write). The other node takes over and commits to another table; then the old leader
 * gets SIGCONT. Checks: once the other node took over, the old leader changes nothing (the victim table's
 * registration and the round's idempotency record read after the take-over, while the old leader is frozen, are
 * exactly what they are after it resumed and its ingest ended; nobody else writes that table), an acknowledged
 * ingest was committed before the take-over, an ingest is visible exactly when its key was recorded, the resumed
 * node demotes itself, and every version the registry names is readable. Run by {@code verification/probes/expired-leader.sh}; exit code 0 when all hold.
 *
 * <p>Arguments: {@code --rounds N} (6), {@code --seed N}, {@code --dir DIR}.
 */
public final class ExpiredLeaderProbe {
  private static final Map<String, String> LEASE = ClusterNodes.PROCESS_LEASE;
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());

  record Round(int round, String mode, String oldLeader, long oldTerm, String newLeader, long newTerm,
      String outcome, String refusedBy, long stoppedMs, boolean recorded) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int rounds = Integer.parseInt(opts.getOrDefault("rounds", "6"));
    long seed = Long.parseLong(opts.getOrDefault("seed", String.valueOf(System.nanoTime())));
    Path dir = opts.containsKey("dir") ? Path.of(opts.get("dir")) : Files.createTempDirectory("lake-expired-leader");
    System.exit(new ExpiredLeaderProbe().run(rounds, seed, dir));
  }

  int run(int rounds, long seed, Path dir) throws Exception {
    System.out.printf("expired-leader probe: rounds=%d seed=%d lease=%s%n", rounds, seed, new TreeMap<>(LEASE));
    SplittableRandom random = new SplittableRandom(seed);
    List<Round> done = new ArrayList<>();
    Map<String, List<Long>> expectedVictim = new TreeMap<>();
    List<Long> expectedOther = new ArrayList<>();
    long started = System.nanoTime();
    try (ProbeCluster cluster = new ProbeCluster(dir, 2, LEASE);
        MetaStore registry = cluster.registryView()) {
      int first = cluster.awaitLeader(Duration.ofSeconds(30));
      ClusterNodes.ingest(cluster.client(first), "victim", -1, 1, FlightTestClient.create(), "victim-create");
      ClusterNodes.ingest(cluster.client(first), "other", -1, 1, FlightTestClient.create(), "other-create");
      expectedVictim.put("victim-create", List.of(-1L));
      expectedOther.add(-1L);
      for (int r = 0; r < rounds; r++) {
        int leader = cluster.awaitLeader(Duration.ofSeconds(30));
        JsonNode before = cluster.status(leader).orElseThrow();
        long oldTerm = before.get("term").asLong();
        String key = "victim-" + r;
        List<Long> rows = new ArrayList<>();
        List<List<Long>> batches = new ArrayList<>();
        for (int b = 0; b < 10; b++) {
          List<Long> batch = new ArrayList<>();
          for (int i = 0; i < 100; i++) {
            long v = (long) r * 1_000_000 + b * 100 + i;
            batch.add(v);
            rows.add(v);
          }
          batches.add(batch);
        }
        boolean midStream = r % 2 == 0;
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FlightTestClient client = cluster.client(leader);
        TricklingReader reader = new TricklingReader(client.allocator(), batches, midStream ? 9 : 99, paused,
            release, 120);
        CompletableFuture<Long> victim = CompletableFuture.supplyAsync(() -> client.ingest("victim", reader,
            FlightTestClient.append(), Map.of("lake.idempotency_key", key)));
        if (midStream) {
          if (!paused.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the victim ingest never started");
          }
        } else {
          Thread.sleep(random.nextInt(400));
        }
        long stoppedAt = System.nanoTime();
        cluster.signal(leader, "STOP");
        release.countDown();
        int follower = (leader + 1) % 2;
        int newLeader = cluster.awaitNewLeader(leader, oldTerm, Duration.ofSeconds(30));
        LeaderLease taken = registry.lease().orElseThrow();
        // While the old leader is frozen and another node leads: what the registry says about the victim table.
        TableRegistration atTakeover = registry.get("victim").orElseThrow();
        Optional<IdempotencyRecord> recordAtTakeover =
            registry.idempotencyRecord("victim", atTakeover.generation(), key);
        String otherKey = "other-" + r;
        ClusterNodes.ingest(cluster.client(newLeader), "other", 10_000_000L + r, 1, FlightTestClient.append(),
            otherKey);
        expectedOther.add(10_000_000L + r);
        cluster.signal(leader, "CONT");
        long stoppedMs = (System.nanoTime() - stoppedAt) / 1_000_000;
        String outcome;
        String refusedBy = "-";
        try {
          long n = victim.get(120, TimeUnit.SECONDS);
          outcome = n == rows.size() ? "OK" : "OK(rows=" + n + ")";
        } catch (Exception e) {
          outcome = code(e);
          refusedBy = refusedBy(e);
        }
        TableRegistration current = registry.get("victim").orElseThrow();
        Optional<IdempotencyRecord> record = registry.idempotencyRecord("victim", current.generation(), key);
        if (!current.equals(atTakeover) || !record.equals(recordAtTakeover)) {
          violations.add("round " + r + ": the old leader wrote after node " + taken.holderId() + " took over at term "
              + taken.term() + ": victim was " + atTakeover.version() + "/" + recordAtTakeover.isPresent()
              + " at the take-over and is " + current.version() + "/" + record.isPresent() + " (term "
              + current.term() + ") after the old leader resumed");
        }
        if (outcome.startsWith("OK") && recordAtTakeover.isEmpty()) {
          violations.add("round " + r + ": " + key + " was acknowledged but was not committed before the take-over");
        }
        if (!outcome.startsWith("OK") && !outcome.equals("UNKNOWN") && record.isPresent()) {
          violations.add("round " + r + ": " + key + " failed with " + outcome + " but was committed");
        }
        if (!outcome.startsWith("OK") && !List.of("UNAVAILABLE", "UNKNOWN").contains(outcome)) {
          violations.add("round " + r + ": unexpected answer " + outcome + " for the frozen leader's ingest");
        }
        if (record.isPresent()) {
          expectedVictim.put(key, rows);
        }
        // The resumed node demotes itself (its gate closed on its own clock; its next campaign sees the new lease).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        boolean demoted = false;
        while (System.nanoTime() < deadline && !demoted) {
          demoted = cluster.status(leader).map(s -> !s.path("leader").asBoolean(true)).orElse(false);
          if (!demoted) {
            Thread.sleep(20);
          }
        }
        if (!demoted) {
          violations.add("round " + r + ": " + ProbeCluster.nodeId(leader) + " still says it leads after SIGCONT");
        }
        done.add(new Round(r, midStream ? "mid-stream" : "random", ProbeCluster.nodeId(leader), oldTerm,
            taken.holderId(), taken.term(), outcome, refusedBy, stoppedMs, record.isPresent()));
        // Hand leadership back sometimes so both nodes get frozen: nothing to do, the frozen one now follows.
        if (follower != newLeader) {
          violations.add("round " + r + ": the lease went to an unexpected node " + newLeader);
        }
      }

      // Final state: exactly the recorded ingests, once each; every named version readable.
      int reader = cluster.awaitLeader(Duration.ofSeconds(30));
      check(cluster.client(reader), registry, "victim", expectedVictim.values().stream().flatMap(List::stream)
          .toList());
      check(cluster.client(reader), registry, "other", expectedOther);
    }
    System.out.println();
    System.out.println("round  mode        frozen  term  new     term  frozen-ms  victim-ingest  refused-by        "
        + "committed");
    for (Round r : done) {
      System.out.printf("%5d  %-10s  %-6s  %4d  %-6s  %4d  %9d  %-13s  %-16s  %s%n", r.round(), r.mode(),
          r.oldLeader(), r.oldTerm(), r.newLeader(), r.newTerm(), r.stoppedMs(), r.outcome(), r.refusedBy(),
          r.recorded());
    }
    System.out.printf("%nprobe took %d s%n", (System.nanoTime() - started) / 1_000_000_000);
    if (violations.isEmpty()) {
      System.out.println("RESULT: OK - no write of an expired leader was registered; every ingest is visible exactly "
          + "when it was committed; every registered version is readable");
      return 0;
    }
    System.out.println("RESULT: " + violations.size() + " VIOLATION(S)");
    violations.forEach(v -> System.out.println("  " + v));
    return 1;
  }

  private void check(FlightTestClient client, MetaStore registry, String table, List<Long> expected)
      throws Exception {
    TableRegistration r = registry.get(table).orElseThrow();
    List<Long> values = client.rows("SELECT v FROM \"" + table + "@v" + r.version() + "\"").stream()
        .map(row -> (Long) row.get(0)).sorted().toList();
    List<Long> want = expected.stream().sorted().toList();
    if (!values.equals(want)) {
      violations.add(table + ": " + values.size() + " rows visible at version " + r.version() + ", expected "
          + want.size() + " (the committed ingests, once each)");
    }
    for (VersionRecord v : registry.history(table, r.generation())) {
      try {
        client.rows("SELECT COUNT(*) FROM \"" + table + "@v" + v.version() + "\"");
      } catch (Exception e) {
        violations.add(table + " version " + v.version() + " is registered but unreadable: " + e.getMessage());
      }
    }
    System.out.printf("%s: version %d, %d rows, %d history versions readable%n", table, r.version(), values.size(),
        registry.history(table, r.generation()).size());
  }

  /** Which guard refused the frozen leader's write, from the answer's message. */
  private static String refusedBy(Throwable t) {
    String m = String.valueOf(t.getMessage());
    for (Throwable c = t; c != null; c = c.getCause()) {
      m = m + " " + c.getMessage();
    }
    if (m.contains("reached its local deadline")) {
      return "gate: deadline";
    }
    if (m.contains("is not the leader")) {
      return "gate: demoted";
    }
    if (m.contains("was rejected: the lease is held by")) {
      return "registry: fence";
    }
    return "other";
  }

  private static String code(Throwable t) {
    try {
      return Status.code(t);
    } catch (AssertionError notFlight) {
      return "NOT_FLIGHT:" + t;
    }
  }
}
