package dev.lake.it.tpch;

import dev.lake.it.support.AdminClient;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A bounded measuring probe for issue 22 (not a benchmark with a report): where one prepared point query's time goes.
 * Starts a lake server in this JVM, loads TPC-H orders at {@code --sf}, builds a BTREE index on o_orderkey, then runs
 * {@code SELECT * FROM orders WHERE o_orderkey = ?} {@code --n} times from one client, twice: through the Flight SQL
 * JDBC driver (time of executeQuery, of reading the rows, of closing the result set) and through Arrow's
 * FlightSqlClient (time of the parameter DoPut plus GetFlightInfo, and of the DoGet). Prints p50/p90/p99 per step,
 * and the CPU per query of every thread of the process (from {@code /proc/self/task}, Java and native threads: the
 * server's Flight executor, gRPC's event loops, Lance's tokio workers, the JIT), so client and server can be told
 * apart. Options: {@code --sf N --n N --rounds N --only jdbc|flight --no-index}.
 *
 * <p>Run it with the class path {@code bin/lake bench point} builds (lake-it/target/bench-point-classpath.txt after
 * lake-it's test classes and the modules' classes), {@code --add-opens=java.base/java.nio=ALL-UNNAMED}, and under
 * JFR ({@code -XX:StartFlightRecording=...}; {@code jfr print --stack-depth 80 --events jdk.ExecutionSample}) to see
 * where the server's Java time goes. The figures it gave are in docs/performance.md ("Point queries and scalar
 * indexes").
 */
public final class PointProbe {
  private PointProbe() {}

  public static void main(String[] args) throws Exception {
    double scale = 0.1;
    int n = 500;
    boolean index = true;
    int rounds = 2;
    String only = "";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sf": scale = Double.parseDouble(args[++i]); break;
        case "--n": n = Integer.parseInt(args[++i]); break;
        case "--no-index": index = false; break;
        case "--rounds": rounds = Integer.parseInt(args[++i]); break;
        case "--only": only = args[++i]; break;
        default: throw new IllegalArgumentException("unknown option " + args[i] + "; use --sf N --n N --no-index");
      }
    }
    Path work = TpchBenchmark.projectRoot().resolve("lake-it").resolve("target").resolve("bench")
        .resolve("probe-" + System.currentTimeMillis());
    Files.createDirectories(work);
    try (BufferAllocator allocator = new RootAllocator();
        LakeTestServer server = LakeTestServer.start(work.resolve("lake"));
        FlightTestClient client = server.client()) {
      long rows = client.ingest("orders", TpchArrow.reader(TpchTable.ORDERS, scale, 65_536, allocator),
          FlightTestClient.create(), Map.of());
      System.out.println("[probe] rows=" + rows);
      if (index) {
        AdminClient.action(client, "lake.create_index",
            "{\"table\": \"orders\", \"column\": \"o_orderkey\", \"type\": \"BTREE\"}");
      }
      long[] keys = new long[1000];
      try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
          java.sql.Statement statement = jdbc.createStatement();
          ResultSet result = statement.executeQuery("SELECT o_orderkey FROM orders")) {
        java.util.Random random = new java.util.Random(1);
        for (int i = 0; result.next(); i++) {
          if (i < keys.length) {
            keys[i] = result.getLong(1);
          } else if (random.nextInt(i) < keys.length) {
            keys[random.nextInt(keys.length)] = result.getLong(1);
          }
        }
      }
      for (int round = 0; round < rounds; round++) {
        Map<String, Long> cpu = threadCpu();
        long process = processCpu();
        long classes = java.lang.management.ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
        if (!only.equals("flight")) {
          jdbc(server, keys, n);
        }
        System.out.println("[probe] classes loaded " + (java.lang.management.ManagementFactory
            .getClassLoadingMXBean().getTotalLoadedClassCount() - classes));
        cpu(n, process, cpu);
        cpu = threadCpu();
        process = processCpu();
        classes = java.lang.management.ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
        if (!only.equals("jdbc")) {
          flight(client, keys, n);
        }
        System.out.println("[probe] classes loaded " + (java.lang.management.ManagementFactory
            .getClassLoadingMXBean().getTotalLoadedClassCount() - classes));
        cpu(n, process, cpu);
      }
    }
    System.exit(0);
  }

  private static void jdbc(LakeTestServer server, long[] keys, int n) throws Exception {
    long[] exec = new long[n];
    long[] read = new long[n];
    long[] close = new long[n];
    try (Connection jdbc = DriverManager.getConnection(server.jdbcUrl());
        PreparedStatement statement = jdbc.prepareStatement("SELECT * FROM orders WHERE o_orderkey = ?")) {
      for (int i = 0; i < n; i++) {
        statement.setLong(1, keys[i % keys.length]);
        long t0 = System.nanoTime();
        ResultSet result = statement.executeQuery();
        long t1 = System.nanoTime();
        int got = 0;
        while (result.next()) {
          got++;
        }
        long t2 = System.nanoTime();
        result.close();
        long t3 = System.nanoTime();
        if (got != 1) {
          throw new IllegalStateException(keys[i % keys.length] + " answered " + got + " rows");
        }
        exec[i] = t1 - t0;
        read[i] = t2 - t1;
        close[i] = t3 - t2;
      }
    }
    System.out.println("[probe] jdbc executeQuery " + stats(exec) + " | next() " + stats(read) + " | close "
        + stats(close));
  }

  private static void flight(FlightTestClient client, long[] keys, int n) throws Exception {
    long[] info = new long[n];
    long[] get = new long[n];
    Schema schema = new Schema(List.of(Field.nullable("p", new ArrowType.Int(64, true))));
    try (FlightSqlClient.PreparedStatement prepared = client.sql().prepare(
            "SELECT * FROM orders WHERE o_orderkey = ?", client.auth());
        VectorSchemaRoot parameters = VectorSchemaRoot.create(schema, client.allocator())) {
      prepared.setParameters(parameters);
      for (int i = 0; i < n; i++) {
        BigIntVector p = (BigIntVector) parameters.getVector(0);
        p.allocateNew(1);
        p.set(0, keys[i % keys.length]);
        parameters.setRowCount(1);
        long t0 = System.nanoTime();
        FlightInfo flightInfo = prepared.execute(client.auth());
        long t1 = System.nanoTime();
        int got = 0;
        try (FlightStream stream = client.sql().getStream(flightInfo.getEndpoints().get(0).getTicket(),
            client.auth())) {
          while (stream.next()) {
            got += stream.getRoot().getRowCount();
          }
        }
        long t2 = System.nanoTime();
        if (got != 1) {
          throw new IllegalStateException(keys[i % keys.length] + " answered " + got + " rows");
        }
        info[i] = t1 - t0;
        get[i] = t2 - t1;
      }
      prepared.close(client.auth());
    }
    System.out.println("[probe] flight DoPut+GetFlightInfo " + stats(info) + " | DoGet " + stats(get));
  }

  private static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** CPU nanoseconds of every thread of this process (Java and native), by /proc task id and name. */
  private static Map<String, Long> threadCpu() {
    Map<String, Long> byName = new java.util.TreeMap<>();
    try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          String stat = Files.readString(task.resolve("stat"));
          int open = stat.indexOf('(');
          int close = stat.lastIndexOf(')');
          String name = stat.substring(open + 1, close);
          String[] f = stat.substring(close + 2).split(" ");
          long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
          byName.put(name.replaceAll("[0-9]+", "N") + "#" + task.getFileName(), ticks * 10_000_000L);
        } catch (java.io.IOException | RuntimeException e) {
          // the thread ended
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return byName;
  }

  private static void cpu(int n, long processBefore, Map<String, Long> before) {
    long process = processCpu() - processBefore;
    Map<String, Long> after = threadCpu();
    Map<String, Long> byName = new java.util.TreeMap<>();
    long javaThreads = 0;
    for (Map.Entry<String, Long> e : after.entrySet()) {
      long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      javaThreads += d;
      byName.merge(e.getKey().substring(0, e.getKey().indexOf('#')), d, Long::sum);
    }
    StringBuilder text = new StringBuilder(String.format("[probe] cpu per query: process %.2f ms, threads %.2f ms:",
        process / 1e6 / n, javaThreads / 1e6 / n));
    byName.forEach((k, v) -> {
      if (v / 1e6 / n >= 0.05) {
        text.append(String.format(" %s=%.2f", k, v / 1e6 / n));
      }
    });
    System.out.println(text);
  }

  private static String stats(long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    return String.format("p50=%.2f p90=%.2f p99=%.2f ms", s[s.length / 2] / 1e6, s[(int) (s.length * 0.9)] / 1e6,
        s[(int) (s.length * 0.99)] / 1e6);
  }
}
