package dev.lake.it.probes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.it.support.AdminClient;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.ServerProcess;
import dev.lake.it.support.Status;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.VersionRecord;
import dev.lake.registry.rocksdb.RocksDbMetaStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Probe (not a test): concurrent drop / recreate / append rounds against a real {@code bin/lake server} process,
 * then checks docs/design.md invariants 3, 4 and 10 from the outcomes, the SQL answers, the registry and the Lance
 * datasets. Run by {@code verification/probes/drop-recreate.sh}. Exit code 0 when every check holds.
 *
 * <p>Every written value is unique ({@code opId * 1000 + i}), so each row names the write that made it. Drop grace
 * (1 h by default) keeps dropped incarnations' files, so each incarnation's last registered version can be read
 * after the run.
 *
 * <p>Arguments: {@code --rounds N} (500), {@code --threads N} (8), {@code --tables N} (4), {@code --seed N},
 * {@code --data-dir DIR} (a fresh temp directory otherwise).
 */
public final class DropRecreateProbe {
  private static final Schema SCHEMA = new Schema(List.of(Field.nullable("v", new ArrowType.Int(64, true))));
  private static final Set<String> EXPECTED_CODES = Set.of("OK", "ABORTED", "NOT_FOUND", "ALREADY_EXISTS");

  enum Kind { APPEND, CREATE, UPSERT, DROP }

  /** One request and what came back. Times are System.nanoTime() in this JVM. */
  record Op(int id, String table, Kind kind, List<Long> rows, long start, long end, String code,
      String droppedGeneration, long droppedVersion) {
    boolean acknowledged() {
      return code.equals("OK");
    }

    boolean isWrite() {
      return kind != Kind.DROP;
    }
  }

  /** One incarnation found after the run. */
  record Incarnation(String table, String generation, String location, boolean current, long lastVersion,
      List<VersionRecord> history) {}

  private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, Long> facts = new LinkedHashMap<>();

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int rounds = Integer.parseInt(opts.getOrDefault("rounds", "500"));
    int threads = Integer.parseInt(opts.getOrDefault("threads", "8"));
    int tableCount = Integer.parseInt(opts.getOrDefault("tables", "4"));
    long seed = Long.parseLong(opts.getOrDefault("seed", String.valueOf(System.nanoTime())));
    Path dataDir = opts.containsKey("data-dir") ? Path.of(opts.get("data-dir"))
        : Files.createTempDirectory("lake-drop-recreate");
    int rc = new DropRecreateProbe().run(rounds, threads, tableCount, seed, dataDir);
    System.exit(rc);
  }

  int run(int rounds, int threads, int tableCount, long seed, Path dataDir) throws Exception {
    List<String> tables = new ArrayList<>();
    for (int i = 0; i < tableCount; i++) {
      tables.add("probe_" + i);
    }
    System.out.printf("drop-recreate probe: rounds=%d threads=%d tables=%d seed=%d dataDir=%s%n", rounds, threads,
        tableCount, seed, dataDir);
    List<Op> ops;
    Map<String, List<Long>> visible = new TreeMap<>();
    long started = System.nanoTime();
    try (ServerProcess server = ServerProcess.start("--port", "0", "--data-dir", dataDir.toString())) {
      System.out.printf("server: bin/lake server pid=%d port=%d%n", server.process().pid(), server.port());
      ops = workload(server.port(), rounds, threads, tables, seed);
      System.out.printf("workload: %d requests in %d ms%n", ops.size(), (System.nanoTime() - started) / 1_000_000);
      try (FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
        for (String table : tables) {
          try {
            visible.put(table, values(client, "SELECT v FROM " + table));
          } catch (RuntimeException e) {
            String code = Status.code(e);
            if (!code.equals("NOT_FOUND")) {
              fail("query of " + table + " answered " + code + ": " + e.getMessage());
            }
          }
        }
        for (String table : visible.keySet()) {
          JsonNode d = AdminClient.describe(client, table);
          facts.merge("describe_history_items", (long) d.get("history").size(), Long::sum);
        }
      }
      int exit = server.stop();
      if (exit != 0) {
        fail("the server exited with " + exit + " on SIGTERM");
      }
    }
    verify(ops, visible, tables, dataDir);
    report(ops);
    return failures.isEmpty() ? 0 : 1;
  }

  // ---------------------------------------------------------------- workload

  private List<Op> workload(int port, int rounds, int threads, List<String> tables, long seed) throws Exception {
    List<Op> ops = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "probe-worker"));
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int w = 0; w < threads; w++) {
        SplittableRandom random = new SplittableRandom(seed + w);
        workers.add(pool.submit(() -> {
          try (FlightTestClient client = FlightTestClient.connect(port, "lake", "lake")) {
            for (int id = next.getAndIncrement(); id < rounds; id = next.getAndIncrement()) {
              ops.add(round(client, id, tables.get(random.nextInt(tables.size())), random));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : workers) {
        f.get(15, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(1, TimeUnit.MINUTES);
    }
    List<Op> sorted = new ArrayList<>(ops);
    sorted.sort((a, b) -> Integer.compare(a.id(), b.id()));
    return sorted;
  }

  private static Op round(FlightTestClient client, int id, String table, SplittableRandom random) {
    int dice = random.nextInt(100);
    Kind kind = dice < 40 ? Kind.APPEND : dice < 60 ? Kind.CREATE : dice < 75 ? Kind.UPSERT : Kind.DROP;
    List<Long> rows = new ArrayList<>();
    if (kind != Kind.DROP) {
      int n = 1 + random.nextInt(20);
      for (int i = 0; i < n; i++) {
        rows.add(id * 1000L + i);
      }
    }
    long start = System.nanoTime();
    String code = "OK";
    String generation = null;
    long version = -1;
    try {
      if (kind == Kind.DROP) {
        JsonNode out = AdminClient.drop(client, table);
        generation = out.get("generation").asText();
        version = out.get("version").asLong();
      } else {
        try (VectorSchemaRoot root = batch(client.allocator(), rows)) {
          long acked = client.ingest(table, root, options(kind));
          if (acked != rows.size()) {
            code = "OK_WRONG_COUNT_" + acked;
          }
        }
      }
    } catch (RuntimeException e) {
      try {
        code = Status.code(e);
      } catch (AssertionError notFlight) {
        code = "CLIENT_ERROR " + e;
      }
    }
    return new Op(id, table, kind, List.copyOf(rows), start, System.nanoTime(), code, generation, version);
  }

  private static TableDefinitionOptions options(Kind kind) {
    return switch (kind) {
      case APPEND -> FlightTestClient.append();
      case CREATE -> FlightTestClient.create();
      default -> FlightTestClient.mode(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE,
          TableExistsOption.TABLE_EXISTS_OPTION_APPEND);
    };
  }

  private static VectorSchemaRoot batch(BufferAllocator allocator, List<Long> values) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    BigIntVector v = (BigIntVector) root.getVector(0);
    for (int i = 0; i < values.size(); i++) {
      v.setSafe(i, values.get(i));
    }
    root.setRowCount(values.size());
    return root;
  }

  private static List<Long> values(FlightTestClient client, String sql) {
    try {
      return client.rows(sql).stream().map(r -> (Long) r.get(0)).toList();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  // ---------------------------------------------------------------- checks

  private void verify(List<Op> ops, Map<String, List<Long>> visible, List<String> tables, Path dataDir)
      throws Exception {
    for (Op op : ops) {
      if (!EXPECTED_CODES.contains(op.code())) {
        fail("op " + op.id() + " " + op.kind() + " " + op.table() + " answered " + op.code());
      }
    }
    Map<Long, Op> writeOfValue = new HashMap<>();
    for (Op op : ops) {
      for (long v : op.rows()) {
        writeOfValue.put(v, op);
      }
    }
    Map<String, Op> dropOfGeneration = new HashMap<>();
    for (Op op : ops) {
      if (op.kind() == Kind.DROP && op.acknowledged()) {
        if (dropOfGeneration.put(op.droppedGeneration(), op) != null) {
          fail("generation " + op.droppedGeneration() + " was acknowledged as dropped twice");
        }
      }
    }

    List<Incarnation> incarnations = new ArrayList<>();
    try (MetaStore store = RocksDbMetaStore.open(dataDir.resolve("registry"))) {
      List<Tombstone> tombstones = store.tombstones();
      Set<String> tombstoned = tombstones.stream().map(Tombstone::generation).collect(Collectors.toSet());
      if (!tombstoned.equals(dropOfGeneration.keySet())) {
        fail("tombstones " + tombstoned.size() + " do not match the acknowledged drops " + dropOfGeneration.size()
            + ": only tombstoned " + minus(tombstoned, dropOfGeneration.keySet()) + ", only acknowledged "
            + minus(dropOfGeneration.keySet(), tombstoned));
      }
      for (String table : tables) {
        Optional<TableRegistration> current = store.get(table);
        if (current.isPresent() != visible.containsKey(table)) {
          fail(table + ": registered=" + current.isPresent() + " but queryable=" + visible.containsKey(table));
        }
        current.ifPresent(r -> incarnations.add(new Incarnation(table, r.generation(), r.location(), true,
            r.version(), store.history(table, r.generation()))));
      }
      for (Tombstone t : tombstones) {
        List<VersionRecord> history = store.history(t.name(), t.generation());
        long last = history.isEmpty() ? -1 : history.get(history.size() - 1).version();
        Op drop = dropOfGeneration.get(t.generation());
        if (drop != null && drop.droppedVersion() != last) {
          fail(t.name() + "/" + t.generation() + ": dropped at version " + drop.droppedVersion()
              + " but its history ends at " + last);
        }
        incarnations.add(new Incarnation(t.name(), t.generation(), t.location(), false, last, history));
      }
    }
    facts.put("incarnations_current", incarnations.stream().filter(Incarnation::current).count());
    facts.put("incarnations_dropped", incarnations.stream().filter(i -> !i.current()).count());

    Map<Integer, Incarnation> incarnationOfWrite = new HashMap<>();
    Map<Integer, Integer> placements = new HashMap<>();
    long versionsOpened = 0;
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine engine = new LanceTableEngine(allocator, Map.of())) {
      for (Incarnation inc : incarnations) {
        String where = inc.table() + "/" + inc.generation();
        List<VersionRecord> history = inc.history();
        if (history.isEmpty()) {
          fail(where + ": no history");
          continue;
        }
        for (int i = 1; i < history.size(); i++) {
          if (history.get(i).version() <= history.get(i - 1).version()) {
            fail(where + ": history not strictly increasing at " + history.get(i).version());
          }
        }
        if (history.get(history.size() - 1).version() != inc.lastVersion()) {
          fail(where + ": registered version " + inc.lastVersion() + " is not the last history item");
        }
        // Each registered version adds the rows of exactly one acknowledged write to its predecessor.
        Map<Long, Integer> previous = Map.of();
        Op creator = null;
        List<Op> writes = new ArrayList<>();
        for (VersionRecord record : history) {
          List<Long> rows;
          try {
            rows = valuesAt(engine, allocator, inc.location(), record.version());
            versionsOpened++;
          } catch (RuntimeException e) {
            fail(where + ": registered version " + record.version() + " does not open: " + e.getMessage());
            break;
          }
          Map<Long, Integer> now = multiset(rows);
          List<Long> added = difference(now, previous);
          if (added == null) {
            fail(where + " version " + record.version() + " lost rows of its predecessor");
            break;
          }
          Set<Op> authors = added.stream().map(v -> writeOfValue.get(v)).collect(Collectors.toSet());
          Op author = authors.size() == 1 ? authors.iterator().next() : null;
          if (author == null || !author.acknowledged() || !sorted(added).equals(author.rows())) {
            fail(where + " version " + record.version() + " adds rows that are not exactly one acknowledged write: "
                + authors.stream().map(o -> o == null ? "unknown" : o.id() + ":" + o.code()).toList());
            previous = now;
            continue;
          }
          if (!author.table().equals(inc.table())) {
            fail(where + " holds rows written to " + author.table() + " (op " + author.id() + ")");
          }
          placements.merge(author.id(), 1, Integer::sum);
          incarnationOfWrite.put(author.id(), inc);
          if (creator == null) {
            creator = author;
            if (author.kind() == Kind.APPEND) {
              fail(where + " was created by op " + author.id() + ", an append that may not create");
            }
          }
          writes.add(author);
          previous = now;
        }
        // Incarnation order: no write lands in an incarnation created after it was acknowledged, or dropped
        // before it started.
        Op drop = inc.current() ? null : dropOfGeneration.get(inc.generation());
        for (Op w : writes) {
          if (creator != null && w.end() < creator.start()) {
            fail(where + ": op " + w.id() + " was acknowledged before the incarnation's create (op "
                + creator.id() + ") started");
          }
          if (drop != null && w.start() > drop.end()) {
            fail(where + ": op " + w.id() + " started after the drop of its incarnation (op " + drop.id()
                + ") was acknowledged");
          }
        }
        if (inc.current()) {
          List<Long> sql = visible.getOrDefault(inc.table(), List.of());
          if (!multiset(sql).equals(previous)) {
            fail(inc.table() + ": the query answered " + sql.size() + " rows, the registered version holds "
                + previous.values().stream().mapToInt(Integer::intValue).sum());
          }
        }
      }
      if (engine.openHandles() != 0) {
        fail("the probe left " + engine.openHandles() + " Lance handles open");
      }
    }
    facts.put("registered_versions_opened", versionsOpened);

    long ackedWrites = 0;
    long visibleNow = 0;
    long inDroppedIncarnations = 0;
    for (Op op : ops) {
      if (!op.isWrite()) {
        continue;
      }
      int placed = placements.getOrDefault(op.id(), 0);
      if (!op.acknowledged()) {
        if (placed > 0) {
          fail("op " + op.id() + " (" + op.code() + ") was not acknowledged but its rows are registered");
        }
        continue;
      }
      ackedWrites++;
      if (placed != 1) {
        fail("acknowledged op " + op.id() + " " + op.kind() + " " + op.table() + " is in " + placed
            + " registered versions (expected exactly 1)");
        continue;
      }
      Incarnation inc = incarnationOfWrite.get(op.id());
      if (inc.current()) {
        visibleNow++;
        if (!visible.getOrDefault(op.table(), List.of()).containsAll(op.rows())) {
          fail("acknowledged op " + op.id() + " is registered in the current incarnation but not queryable");
        }
      } else {
        inDroppedIncarnations++;
        Op drop = dropOfGeneration.get(inc.generation());
        if (drop == null) {
          fail("acknowledged op " + op.id() + " is in incarnation " + inc.generation()
              + ", which no acknowledged drop removed");
        }
      }
    }
    // No table shows rows of an older incarnation (or of any write that did not land in the current one).
    for (Map.Entry<String, List<Long>> e : visible.entrySet()) {
      for (long v : e.getValue()) {
        Op author = writeOfValue.get(v);
        Incarnation inc = author == null ? null : incarnationOfWrite.get(author.id());
        if (inc == null || !inc.current() || !inc.table().equals(e.getKey())) {
          fail(e.getKey() + " shows value " + v + " of op " + (author == null ? "unknown" : author.id())
              + ", which is not a write of its current incarnation");
          break;
        }
      }
    }
    facts.put("acknowledged_writes", ackedWrites);
    facts.put("acknowledged_writes_visible_now", visibleNow);
    facts.put("acknowledged_writes_in_dropped_incarnations", inDroppedIncarnations);
    facts.put("rows_visible_now", visible.values().stream().mapToLong(List::size).sum());
    facts.put("unnamed_generation_dirs", unnamedGenerationDirs(dataDir, tables, incarnations));
  }

  /** Generation directories no registration or tombstone names (losing creates' staged files; the sweep's job). */
  private static long unnamedGenerationDirs(Path dataDir, List<String> tables, List<Incarnation> incarnations)
      throws IOException {
    Set<String> named = incarnations.stream().map(Incarnation::generation).collect(Collectors.toSet());
    long unnamed = 0;
    for (String table : tables) {
      Path dir = dataDir.resolve("tables").resolve(table);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> s = Files.list(dir)) {
        unnamed += s.filter(p -> !named.contains(p.getFileName().toString())).count();
      }
    }
    return unnamed;
  }

  private void report(List<Op> ops) {
    System.out.println("outcomes (request kind -> status code: count):");
    Map<Kind, Map<String, Long>> byKind = new TreeMap<>();
    for (Op op : ops) {
      byKind.computeIfAbsent(op.kind(), k -> new TreeMap<>()).merge(op.code(), 1L, Long::sum);
    }
    byKind.forEach((kind, codes) -> System.out.printf("  %-7s %s%n", kind, codes));
    Map<String, Long> total = new TreeMap<>();
    ops.forEach(op -> total.merge(op.code(), 1L, Long::sum));
    System.out.printf("  %-7s %s%n", "ALL", total);
    long bad = ops.stream().filter(op -> op.code().equals("INTERNAL") || op.code().equals("UNKNOWN")).count();
    System.out.printf("  INTERNAL/UNKNOWN: %d%n", bad);
    System.out.println("facts:");
    facts.forEach((k, v) -> System.out.printf("  %s = %d%n", k, v));
    System.out.println("checks:");
    System.out.println("  every acknowledged write is in exactly one registered version of one incarnation");
    System.out.println("  acknowledged writes not visible now are in incarnations removed by an acknowledged drop");
    System.out.println("  no unacknowledged write's rows are registered anywhere");
    System.out.println("  no table shows rows of an older incarnation; no write lands in an incarnation created after"
        + " it was acknowledged or dropped before it started");
    System.out.println("  every registered version opens; each adds exactly one acknowledged write");
    System.out.println("  history strictly increasing per generation; tombstones == acknowledged drops");
    if (failures.isEmpty()) {
      System.out.println("RESULT: PASS (all checks hold)");
    } else {
      System.out.println("RESULT: FAIL (" + failures.size() + " violations)");
      failures.stream().limit(50).forEach(f -> System.out.println("  - " + f));
    }
  }

  private void fail(String message) {
    failures.add(message);
  }

  private static List<Long> valuesAt(LanceTableEngine engine, BufferAllocator allocator, String location,
      long version) {
    List<Long> out = new ArrayList<>();
    try (TableSnapshot snapshot = engine.open(location, version, allocator);
        ArrowReader reader = snapshot.scan(List.of("v"), Optional.empty(), Optional.empty(), 8192)) {
      while (reader.loadNextBatch()) {
        BigIntVector v = (BigIntVector) reader.getVectorSchemaRoot().getVector(0);
        for (int i = 0; i < v.getValueCount(); i++) {
          out.add(v.get(i));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  private static Map<Long, Integer> multiset(List<Long> values) {
    Map<Long, Integer> m = new HashMap<>();
    values.forEach(v -> m.merge(v, 1, Integer::sum));
    return m;
  }

  private static List<Long> difference(Map<Long, Integer> bigger, Map<Long, Integer> smaller) {
    for (Map.Entry<Long, Integer> e : smaller.entrySet()) {
      if (bigger.getOrDefault(e.getKey(), 0) < e.getValue()) {
        return null;
      }
    }
    List<Long> out = new ArrayList<>();
    bigger.forEach((v, n) -> {
      for (int i = n - smaller.getOrDefault(v, 0); i > 0; i--) {
        out.add(v);
      }
    });
    return out;
  }

  private static List<Long> sorted(List<Long> values) {
    return values.stream().sorted().toList();
  }

  private static Set<String> minus(Set<String> a, Set<String> b) {
    Set<String> out = new HashSet<>(a);
    out.removeAll(b);
    return out;
  }
}
