package dev.lake.it.tpch;

import dev.lake.it.support.AdminClient;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * {@code bin/lake bench point}: dashboard point queries (issue 22) from one and from several concurrent clients,
 * without and then with scalar indexes ({@code lake.create_index}): {@code SELECT * FROM orders WHERE o_orderkey = ?}
 * and {@code SELECT * FROM orders WHERE o_orderpriority = ? LIMIT 10} over TPC-H orders (1.5 M rows at SF 1, loaded
 * by Flight bulk ingest). Clients ({@code --client jdbc|pyarrow|all}): the Flight SQL JDBC driver with prepared
 * statements (threads of this JVM), and pyarrow processes ({@link PyarrowPointClients}) with prepared statements and
 * with un-prepared statements carrying the value in the SQL text. Every answer is checked (one row with the key; ten
 * rows with the priority). Prints and writes queries/s, p50 and p99 per case to verification/bench-point.md with the
 * machine's {@code uptime}. {@code --setting key=value} (repeatable) sets a server configuration key (docs/config.md),
 * e.g. {@code query.auto-parameterize=false} to compare a run without literal auto-parameterization.
 */
public final class PointBenchmark {
  private static final String[] PRIORITIES = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};
  private static final String BY_KEY = "SELECT * FROM orders WHERE o_orderkey = ?";
  private static final String BY_PRIORITY = "SELECT * FROM orders WHERE o_orderpriority = ? LIMIT 10";
  private static final int WARM_UP_SECONDS = 2;

  /** Who asks: a table row's {@code client} column. */
  private enum Client {
    JDBC_PREPARED("JDBC prepared"),
    PYARROW_PREPARED("pyarrow prepared"),
    PYARROW_STATEMENT("pyarrow statement");

    final String label;

    Client(String label) {
      this.label = label;
    }
  }

  private final double scale;
  private final int seconds;
  private final int clients;
  private final List<Client> kinds;
  private final boolean[] queries;
  private final Path work;
  private final Path out;
  private final Map<String, String> settings = new java.util.HashMap<>();
  private final List<String> lines = new ArrayList<>();

  private PyarrowPointClients pyarrow;

  private PointBenchmark(double scale, int seconds, int clients, List<Client> kinds, boolean[] queries, Path work,
      Path out) {
    this.scale = scale;
    this.seconds = seconds;
    this.clients = clients;
    this.kinds = kinds;
    this.queries = queries;
    this.work = work;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    double scale = 1;
    int seconds = 10;
    int clients = 8;
    String client = "all";
    String query = "all";
    Path work = null;
    Path out = TpchBenchmark.projectRoot().resolve("verification").resolve("bench-point.md");
    Map<String, String> settings = new java.util.HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--sf": scale = Double.parseDouble(value); i++; break;
        case "--seconds": seconds = Integer.parseInt(value); i++; break;
        case "--clients": clients = Integer.parseInt(value); i++; break;
        case "--client": client = value; i++; break;
        case "--query": query = value; i++; break;
        case "--work": work = Path.of(value); i++; break;
        case "--out": out = Path.of(value); i++; break;
        case "--setting": settings.put(value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
          i++;
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i]
              + "; use --sf N --seconds N --clients N --client jdbc|pyarrow|all --query key|priority|all "
              + "--work DIR --out FILE --setting key=value");
      }
    }
    List<Client> kinds = switch (String.valueOf(client)) {
      case "jdbc" -> List.of(Client.JDBC_PREPARED);
      case "pyarrow" -> List.of(Client.PYARROW_PREPARED, Client.PYARROW_STATEMENT);
      case "all" -> List.of(Client.values());
      default -> throw new IllegalArgumentException("--client " + client + ": use jdbc, pyarrow or all");
    };
    boolean[] byKey = switch (String.valueOf(query)) {
      case "key" -> new boolean[] {true};
      case "priority" -> new boolean[] {false};
      case "all" -> new boolean[] {true, false};
      default -> throw new IllegalArgumentException("--query " + query + ": use key, priority or all");
    };
    if (work == null) {
      work = TpchBenchmark.projectRoot().resolve("lake-it").resolve("target").resolve("bench")
          .resolve("point-" + System.currentTimeMillis());
    }
    PointBenchmark bench = new PointBenchmark(scale, seconds, clients, kinds, byKey, work.toAbsolutePath(),
        out.toAbsolutePath());
    bench.settings.putAll(settings);
    bench.run();
    System.exit(0); // the Flight clients leave non-daemon threads behind; the figures are written
  }

  private void run() throws Exception {
    Files.createDirectories(work);
    String uptimeBefore = uptime();
    try (BufferAllocator allocator = new RootAllocator();
        LakeTestServer server = LakeTestServer.start(work.resolve("lake"), b -> {}, settings);
        FlightTestClient client = server.client()) {
      long start = System.nanoTime();
      long rows = client.ingest("orders", TpchArrow.reader(TpchTable.ORDERS, scale, 65_536, allocator),
          FlightTestClient.create(), Map.of());
      log(String.format("loaded orders rows=%d in %.1f s (Flight bulk ingest)", rows, (System.nanoTime() - start)
          / 1e9));
      long[] keys = keys(server);
      if (kinds.contains(Client.PYARROW_PREPARED)) {
        pyarrow = PyarrowPointClients.create(TpchBenchmark.projectRoot(), work, keys);
      }
      lines.add("| index | query | client | clients | queries | queries/s | p50 ms | p99 ms |");
      lines.add("|---|---|---|---|---|---|---|---|");
      phases(server, keys, "none");
      long t = System.nanoTime();
      AdminClient.action(client, "lake.create_index",
          "{\"table\": \"orders\", \"column\": \"o_orderkey\", \"type\": \"BTREE\"}");
      long btree = System.nanoTime() - t;
      t = System.nanoTime();
      AdminClient.action(client, "lake.create_index",
          "{\"table\": \"orders\", \"column\": \"o_orderpriority\", \"type\": \"BITMAP\"}");
      long bitmap = System.nanoTime() - t;
      log(String.format("lake.create_index: BTREE o_orderkey %.1f s, BITMAP o_orderpriority %.1f s", btree / 1e9,
          bitmap / 1e9));
      phases(server, keys, "BTREE o_orderkey, BITMAP o_orderpriority");
      write(rows, uptimeBefore, btree, bitmap);
    }
  }

  private void phases(LakeTestServer server, long[] keys, String index) throws Exception {
    for (boolean byKey : queries) {
      for (Client kind : kinds) {
        for (int n : new int[] {1, clients}) {
          Result r = kind == Client.JDBC_PREPARED ? measure(server, keys, byKey, n)
              : pyarrow.measure(server.port(), byKey, kind == Client.PYARROW_PREPARED, n, WARM_UP_SECONDS, seconds);
          String row = String.format("| %s | %s | %s | %d | %d | %.0f | %.2f | %.2f |", index,
              byKey ? BY_KEY : BY_PRIORITY, kind.label, n, r.count, r.perSecond(), r.percentile(0.50),
              r.percentile(0.99));
          lines.add(row);
          log(row);
        }
      }
    }
  }

  /** {@code count} latencies (ns) measured over {@code elapsedSeconds} by all clients of a case together. */
  record Result(long[] nanos, int count, double elapsedSeconds) {
    double perSecond() {
      return count / elapsedSeconds;
    }

    double percentile(double p) {
      long[] sorted = Arrays.copyOf(nanos, count);
      Arrays.sort(sorted);
      return count == 0 ? Double.NaN : sorted[(int) Math.min(count - 1, Math.floor(p * count))] / 1e6;
    }
  }

  /** {@code n} clients, each its own JDBC connection and prepared statement, for {@link #seconds} after a warm-up. */
  private Result measure(LakeTestServer server, long[] keys, boolean byKey, int n) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
      Thread thread = new Thread(r, "point-client");
      thread.setDaemon(true);
      return thread;
    });
    try {
      List<Future<long[]>> futures = new ArrayList<>();
      long warmUntil = System.nanoTime() + WARM_UP_SECONDS * 1_000_000_000L;
      long until = warmUntil + seconds * 1_000_000_000L;
      long started = System.nanoTime();
      for (int c = 0; c < n; c++) {
        futures.add(pool.submit(() -> client(server, keys, byKey, warmUntil, until)));
      }
      List<long[]> all = new ArrayList<>();
      for (Future<long[]> f : futures) {
        all.add(f.get());
      }
      double elapsed = Math.max(1e-9, (System.nanoTime() - Math.max(started, warmUntil)) / 1e9);
      int count = all.stream().mapToInt(a -> (int) a[0]).sum();
      long[] nanos = new long[count];
      int at = 0;
      for (long[] a : all) {
        System.arraycopy(a, 1, nanos, at, (int) a[0]);
        at += (int) a[0];
      }
      return new Result(nanos, count, elapsed);
    } finally {
      pool.shutdownNow();
    }
  }

  /** One client's loop; returns [count, latency...] of the queries after the warm-up. */
  private static long[] client(LakeTestServer server, long[] keys, boolean byKey, long warmUntil, long until)
      throws Exception {
    long[] nanos = new long[1 << 20];
    int count = 0;
    ThreadLocalRandom random = ThreadLocalRandom.current();
    try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
        PreparedStatement statement = jdbc.prepareStatement(byKey ? BY_KEY : BY_PRIORITY)) {
      while (true) {
        long now = System.nanoTime();
        if (now >= until || count == nanos.length - 1) {
          break;
        }
        long key = keys[random.nextInt(keys.length)];
        String priority = PRIORITIES[random.nextInt(PRIORITIES.length)];
        if (byKey) {
          statement.setLong(1, key);
        } else {
          statement.setString(1, priority);
        }
        int rows = 0;
        try (ResultSet result = statement.executeQuery()) {
          while (result.next()) {
            rows++;
            if (byKey ? result.getLong("o_orderkey") != key : !priority.equals(result.getString("o_orderpriority"))) {
              throw new IllegalStateException("wrong row for " + (byKey ? key : priority));
            }
          }
        }
        if (rows != (byKey ? 1 : 10)) {
          throw new IllegalStateException((byKey ? key : priority) + " answered " + rows + " rows");
        }
        long took = System.nanoTime() - now;
        if (now >= warmUntil) {
          nanos[++count] = took;
        }
      }
    }
    nanos[0] = count;
    return nanos;
  }

  private static long[] keys(LakeTestServer server) throws Exception {
    try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
        java.sql.Statement statement = jdbc.createStatement();
        ResultSet result = statement.executeQuery("SELECT o_orderkey FROM orders")) {
      long[] keys = new long[1 << 16];
      int n = 0;
      while (result.next()) {
        if (n == keys.length) {
          keys = Arrays.copyOf(keys, n * 2);
        }
        keys[n++] = result.getLong(1);
      }
      return Arrays.copyOf(keys, n);
    }
  }

  private void write(long rows, String uptimeBefore, long btree, long bitmap) throws IOException {
    List<String> doc = new ArrayList<>();
    doc.add("# Point queries (`bin/lake bench point`)");
    doc.add("");
    doc.add(String.format("TPC-H orders at SF %s (%,d rows, loaded by Flight bulk ingest) in a lake server started "
        + "in the benchmark's JVM. Clients: \"JDBC prepared\" are Flight SQL JDBC driver connections in the same JVM "
        + "(one per client thread) with prepared statements; \"pyarrow prepared\" are separate Python processes (one "
        + "per client, pyarrow.flight with Flight SQL messages: a prepared statement, then per query a DoPut of one "
        + "parameter row, GetFlightInfo and DoGet); \"pyarrow statement\" the same processes with un-prepared "
        + "statements, the value a literal in the SQL text (GetFlightInfo and DoGet). Each query's answer is checked; "
        + "%d s measured per case after a %d s warm-up; the latency is the client's, from before the first call to the "
        + "last batch read.", scale, rows, seconds, WARM_UP_SECONDS));
    doc.add(String.format("`lake.create_index` took %.1f s (BTREE on o_orderkey) and %.1f s (BITMAP on "
        + "o_orderpriority).", btree / 1e9, bitmap / 1e9));
    doc.add("");
    doc.add("Targets (issue 22): >= 1,000 queries/s from 8 clients at p99 <= 20 ms, p50 <= 3 ms for one client.");
    doc.add("");
    if (!settings.isEmpty()) {
      doc.add("Server settings (`--setting`): `" + new java.util.TreeMap<>(settings) + "`.");
      doc.add("");
    }
    doc.addAll(lines);
    doc.add("");
    doc.add("`uptime` before: `" + uptimeBefore + "`; after: `" + uptime() + "` (2 cores, shared with other work).");
    Files.createDirectories(out.getParent());
    Files.writeString(out, String.join("\n", doc) + "\n", StandardCharsets.UTF_8);
    log("wrote " + out);
  }

  private static String uptime() {
    try {
      Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      p.waitFor();
      return text;
    } catch (IOException e) {
      return "unavailable (" + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unavailable";
    }
  }

  private static void log(String line) {
    System.out.println("[bench point] " + line);
  }
}
