package dev.lake.it.probes;

import com.google.protobuf.Any;
import dev.lake.flight.auth.PasswordHasher;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.RawHttp2;
import dev.lake.it.support.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.flight.AsyncPutListener;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Probe (not a test): runs the resource attacks of issue 17 against a real {@code bin/lake server} process on
 * loopback, one after the other, each bounded in time, and prints for each the victim client's {@code SELECT
 * count(*)} latency (median ms) before, during and after the attack, and whether the node recovered (it answers, and
 * its latency is back near the baseline within 30 s). Attacks: oversized headers without credentials, a failed-login
 * flood, DoGets whose reader stops reading, PollFlightInfo spool flooding, queries past their timeout (LIKE
 * backtracking, a cross join), DoPuts that never send their first message. Run by
 * {@code verification/probes/resource-abuse.sh}; exit code 0 when the node recovered from every attack.
 *
 * <p>Arguments: {@code --data-dir DIR}, {@code --seconds N} (attack length, 12; query.timeout is 10 s).
 */
public final class ResourceAbuseProbe {
  private static final String LIST_FLIGHTS = "/arrow.flight.protocol.FlightService/ListFlights";
  private final int port;
  private final long attackMillis;
  private final ServerProcess server;
  private FlightTestClient victim;

  private ResourceAbuseProbe(ServerProcess server, long attackMillis) {
    this.server = server;
    this.port = server.port();
    this.attackMillis = attackMillis;
  }

  public static void main(String[] args) throws Exception {
    if (org.slf4j.LoggerFactory.getLogger("org.apache.arrow.flight") instanceof ch.qos.logback.classic.Logger l) {
      l.setLevel(ch.qos.logback.classic.Level.OFF);
    }
    Map<String, String> opts = new TreeMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    Path dataDir = opts.containsKey("data-dir") ? Path.of(opts.get("data-dir"))
        : Files.createTempDirectory("lake-resource-abuse");
    long seconds = Long.parseLong(opts.getOrDefault("seconds", "12"));
    System.exit(run(dataDir, seconds));
  }

  static int run(Path dataDir, long seconds) throws Exception {
    Files.createDirectories(dataDir);
    Path config = dataDir.resolveSibling(dataDir.getFileName() + "-lake.yaml");
    PasswordHasher hasher = new PasswordHasher();
    StringBuilder yaml = new StringBuilder("auth:\n  login-failure-max-delay: 5s\n  users:\n");
    for (String[] u : new String[][] {{"rita", "reader"}, {"walt", "writer"}, {"vic", "reader"}}) {
      yaml.append("    - name: ").append(u[0]).append("\n      password-hash: \"")
          .append(hasher.hash((u[0] + "-pw").toCharArray())).append("\"\n      role: ").append(u[1]).append('\n');
    }
    // Short limits so each attack's end state is reached within the probe's bounds.
    yaml.append("query:\n  timeout: 10s\n  max-concurrent: 8\n  max-queued: 16\n  max-concurrent-per-user: 4\n"
        + "  write-stall-timeout: 4s\n"
        + "results:\n  max-bytes-per-user: 8MB\ningest:\n  idle-timeout: 10s\n");
    Files.writeString(config, yaml);
    System.out.printf("resource-abuse probe: attack=%ds dataDir=%s%n", seconds, dataDir);
    int failures = 0;
    try (ServerProcess server = ServerProcess.start("--port", "0", "--data-dir", dataDir.toString(), "--config",
        config.toString())) {
      System.out.printf("server: bin/lake server pid=%d port=%d%n", server.process().pid(), server.port());
      ResourceAbuseProbe probe = new ResourceAbuseProbe(server, seconds * 1000);
      // The victim logs in once: its bearer token serves every attack (the login flood throttles the loopback
      // address the probe shares with it).
      probe.victim = FlightTestClient.connect(server.port(), "vic", "vic-pw");
      try (FlightTestClient walt = FlightTestClient.connect(server.port(), "walt", "walt-pw")) {
        LongTable.ingest(walt, "t", 0, 1_000_000, FlightTestClient.create());
        LongTable.ingest(walt, "small", 0, 3_000, FlightTestClient.create());
      }
      System.out.printf("%-22s %10s %10s %10s %9s  %s%n", "attack", "before_ms", "during_ms", "after_ms",
          "recovered", "notes");
      failures += probe.attack("oversized-headers", probe::oversizedHeaders);
      failures += probe.attack("failed-login-flood", probe::loginFlood);
      failures += probe.attack("stalled-readers", probe::stalledReaders);
      failures += probe.attack("spool-flood", probe::spoolFlood);
      failures += probe.attack("timed-out-queries", probe::timedOutQueries);
      failures += probe.attack("descriptorless-doput", probe::parkedPuts);
      System.out.printf("server alive at the end: %s; threads=%d%n", server.process().isAlive(), threads(server));
      probe.victim.close();
      server.stop();
    }
    System.out.printf("attacks the node did not recover from: %d%n", failures);
    return failures == 0 ? 0 : 1;
  }

  /** One attack: its threads run until {@code stop} is set; returns notes for the report line. */
  private interface Attack {
    String run(AtomicBoolean stop) throws Exception;
  }

  private int attack(String name, Attack attack) throws Exception {
    {
      for (int i = 0; i < 3; i++) {
        timed(victim); // warm up (the first queries plan slowly on a loaded machine)
      }
      long before = median(victim, 5);
      AtomicBoolean stop = new AtomicBoolean();
      List<Long> during = Collections.synchronizedList(new ArrayList<>());
      ExecutorService pool = Executors.newSingleThreadExecutor();
      String[] notes = {""};
      var attacker = pool.submit(() -> {
        notes[0] = attack.run(stop);
        return null;
      });
      long end = System.nanoTime() + attackMillis * 1_000_000;
      while (System.nanoTime() < end) {
        during.add(timed(victim));
        Thread.sleep(200);
      }
      stop.set(true);
      try {
        attacker.get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        notes[0] += " attacker: " + e.getCause();
      }
      pool.shutdownNow();
      long after = Long.MAX_VALUE;
      long recoverBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      boolean recovered = false;
      while (System.nanoTime() < recoverBy && server.process().isAlive()) {
        after = median(victim, 3);
        if (after <= Math.max(3 * before, before + 100)) {
          recovered = true;
          break;
        }
        Thread.sleep(500);
      }
      System.out.printf("%-22s %10d %10d %10s %9s  %s%n", name, before, median(during),
          after == Long.MAX_VALUE ? "-" : Long.toString(after), recovered ? "yes" : "NO", notes[0].strip());
      return recovered ? 0 : 1;
    }
  }

  private String oversizedHeaders(AtomicBoolean stop) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4, r -> new Thread(r, "raw-http2-attacker"));
    AtomicLong calls = new AtomicLong();
    AtomicLong closed = new AtomicLong();
    AtomicLong maxSent = new AtomicLong();
    for (int i = 0; i < 4; i++) {
      pool.submit(() -> {
        while (!stop.get()) {
          RawHttp2.Outcome o = RawHttp2.oversizedHeaders(port, LIST_FLIGHTS, 16 << 20, 5_000);
          calls.incrementAndGet();
          if (o.closedByServer()) {
            closed.incrementAndGet();
          }
          maxSent.accumulateAndGet(o.bytesSent(), Math::max);
        }
        return null;
      });
    }
    pool.shutdown();
    pool.awaitTermination(120, TimeUnit.SECONDS);
    return "16MB header blocks=" + calls + " closed_by_server=" + closed + " most_bytes_read_before_close="
        + maxSent;
  }

  private String loginFlood(AtomicBoolean stop) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    AtomicLong attempts = new AtomicLong();
    AtomicLong throttled = new AtomicLong();
    for (int i = 0; i < 16; i++) {
      int n = i;
      pool.submit(() -> {
        try (BufferAllocator a = new RootAllocator();
            FlightClient c = FlightClient.builder(a, Location.forGrpcInsecure("127.0.0.1", port)).build()) {
          while (!stop.get()) {
            try {
              c.authenticateBasicToken(n % 2 == 0 ? "rita" : "nobody-" + n, "guess");
            } catch (RuntimeException e) {
              if (String.valueOf(e.getMessage()).contains("too many failed logins")) {
                throttled.incrementAndGet();
              }
            }
            attempts.incrementAndGet();
          }
        }
        return null;
      });
    }
    pool.shutdown();
    pool.awaitTermination(120, TimeUnit.SECONDS);
    // A valid login from the flooding address is refused until the address's delay (at most 5 s here) has passed.
    long t0 = System.nanoTime();
    int refused = 0;
    while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(40)) {
      try (FlightTestClient walt = FlightTestClient.connect(port, "walt", "walt-pw")) {
        break;
      } catch (RuntimeException e) {
        refused++;
        Thread.sleep(250);
      }
    }
    return "attempts=" + attempts + " throttled=" + throttled + "; a valid login from the same address succeeded "
        + (System.nanoTime() - t0) / 1_000_000 + " ms after the flood (" + refused + " refused before)";
  }

  private String stalledReaders(AtomicBoolean stop) throws Exception {
    List<FlightStream> streams = new ArrayList<>();
    int refused = 0;
    try (FlightTestClient rita = FlightTestClient.connect(port, "rita", "rita-pw")) {
      for (int i = 0; i < 12; i++) {
        try {
          FlightInfo info = rita.sql().execute("SELECT v FROM t", rita.auth());
          streams.add(rita.sql().getStream(info.getEndpoints().get(0).getTicket(), rita.auth()));
        } catch (RuntimeException e) {
          refused++;
        }
      }
      while (!stop.get()) {
        Thread.sleep(100);
      }
      for (FlightStream s : streams) {
        try {
          s.cancel("probe done", null);
          s.close();
        } catch (Exception e) {
          // stopped by the server already
        }
      }
    }
    return "12 unread DoGets of 8MB each by one reader: " + streams.size() + " opened, " + refused + " refused";
  }

  private String spoolFlood(AtomicBoolean stop) throws Exception {
    int started = 0;
    int refused = 0;
    try (FlightTestClient rita = FlightTestClient.connect(port, "rita", "rita-pw")) {
      FlightDescriptor big = FlightDescriptor.command(Any.pack(FlightSql.CommandStatementQuery.newBuilder()
          .setQuery("SELECT v FROM t").build()).toByteArray());
      while (!stop.get()) {
        try {
          rita.flight().pollInfo(big, rita.auth());
          started++;
        } catch (RuntimeException e) {
          refused++;
        }
        Thread.sleep(100);
      }
    }
    return "PollFlightInfo jobs of 8MB: started=" + started + " refused=" + refused
        + " (failed jobs answer RESOURCE_EXHAUSTED when polled)";
  }

  private String timedOutQueries(AtomicBoolean stop) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    AtomicLong answered = new AtomicLong();
    String like = "SELECT count(*) FROM (SELECT CAST(v AS VARCHAR) || '" + "a".repeat(200) + "' AS s FROM t) "
        + "WHERE s LIKE '%a%a%a%a%a%a%a%b'";
    String cross = "SELECT count(*) FROM t a, t b";
    for (int i = 0; i < 4; i++) {
      String sql = i % 2 == 0 ? like : cross;
      pool.submit(() -> {
        try (FlightTestClient rita = FlightTestClient.connect(port, "rita", "rita-pw")) {
          while (!stop.get()) {
            try {
              rita.rows(sql);
            } catch (Exception e) {
              answered.incrementAndGet();
            }
          }
        }
        return null;
      });
    }
    pool.shutdown();
    pool.awaitTermination(120, TimeUnit.SECONDS);
    return "LIKE-backtracking and cross-join queries past query.timeout (10s): " + answered + " answered with an error"
        + " (issue 17 items 2-3: whether the work stops shows in the after column)";
  }

  private String parkedPuts(AtomicBoolean stop) throws Exception {
    int baseline = threads(server);
    List<FlightClient.ClientStreamListener> puts = new ArrayList<>();
    try (BufferAllocator a = new RootAllocator();
        FlightClient c = FlightClient.builder(a, Location.forGrpcInsecure("127.0.0.1", port)).build()) {
      var auth = c.authenticateBasicToken("rita", "rita-pw").orElseThrow();
      for (int i = 0; i < 200 && !stop.get(); i++) {
        // startPut without a root sends nothing until the first batch: the server waits for the descriptor.
        puts.add(c.startPut(FlightDescriptor.command(new byte[0]), new AsyncPutListener(), auth,
            CallOptions.timeout(120, TimeUnit.SECONDS)));
      }
      int during = threads(server);
      while (!stop.get()) {
        Thread.sleep(100);
      }
      for (FlightClient.ClientStreamListener p : puts) {
        try {
          p.error(new RuntimeException("probe done"));
        } catch (RuntimeException e) {
          // ignore
        }
      }
      Thread.sleep(2_000);
      return "200 DoPuts that never send a first message: server threads " + baseline + " -> " + during + " -> "
          + threads(server) + " after the clients cancelled (issue 17 item 5)";
    }
  }

  private static int threads(ServerProcess server) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + server.jvm().pid() + "/status"))) {
        if (line.startsWith("Threads:")) {
          return Integer.parseInt(line.substring(8).strip());
        }
      }
    } catch (Exception e) {
      return -1;
    }
    return -1;
  }

  private static long timed(FlightTestClient victim) {
    long t0 = System.nanoTime();
    try {
      victim.rows("SELECT count(*) FROM small");
      return (System.nanoTime() - t0) / 1_000_000;
    } catch (Exception e) {
      return 60_000; // an error counts as a very slow answer
    }
  }

  private static long median(FlightTestClient victim, int n) {
    List<Long> samples = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      samples.add(timed(victim));
    }
    return median(samples);
  }

  private static long median(List<Long> samples) {
    List<Long> sorted = new ArrayList<>(samples);
    Collections.sort(sorted);
    return sorted.isEmpty() ? -1 : sorted.get(sorted.size() / 2);
  }
}
