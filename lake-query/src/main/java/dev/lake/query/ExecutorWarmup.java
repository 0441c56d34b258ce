package dev.lake.query;

import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.engine.TableEngine;
import dev.lake.query.vector.ColumnCache;
import dev.lake.query.vector.VectorRuntime;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The query path's one-time cost, paid before a node reports ready (docs/operations.md, "Start-up and readiness";
 * {@code query.warmup-rows}): a fresh JVM runs the planner and the vectorized executor's loops in the interpreter
 * until the JIT has compiled them, and on a first query that costs more than the data does (measured: a cold TPC-H
 * Q1 at SF 1 spent two thirds of its CPU in the executor's aggregate loops before they were compiled). This writes
 * two small synthetic tables (a fact table of {@code rows} rows in four fragments and a dimension table) with the
 * real engine into a scratch directory, runs a few statements of common analytic shapes on a private
 * {@link QueryService} — a filtered grouped aggregate with decimal arithmetic, a filtered global aggregate, an
 * aggregate over a join with ORDER BY and LIMIT, and the rows of joins with a correlated scalar sub-query (TPC-H Q2's
 * shape: measured, a cold Q2 after one such statement took half the CPU of its planning and code generation, the
 * JIT having compiled Calcite's sub-query rules and Janino) — each {@link #RUNS} times (the column cache filled, then
 * read), and deletes the directory. Nothing of the node's own state is touched: the private service has its own
 * catalog, column cache, plan cache, statistics and worker pool, so registered tables stay as cold as before (the JIT
 * is what is shared).
 */
public final class ExecutorWarmup {
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorWarmup.class);
  /** The fewest fact rows a warm-up writes (fewer do not get the executor's loops compiled). */
  public static final int MIN_ROWS = 4_096;
  private static final int FRAGMENTS = 4;
  private static final int BATCH_ROWS = 8_192;
  /**
   * Runs of each statement: the first fills the private column cache, the rest read it. The JIT's optimizing tier
   * compiles a method after several hundred calls, and the executor's kernels are called once per 4,096-row chunk and
   * column: a measured cold TPC-H Q1 after two runs of each still ran its group-id and aggregate loops uncompiled,
   * 10x slower than its second run.
   */
  static final int RUNS = 8;
  /** The private service's column cache: the warm-up tables fit it. */
  private static final long CACHE_BYTES = 256L << 20;

  static final String FACTS = "warmup_facts";
  static final String DIMS = "warmup_dims";

  /** The statements, run in this order. */
  static final List<String> STATEMENTS = List.of(
      "SELECT grp, flag, sum(qty) AS sq, sum(price) AS sp, sum(price * (1 - disc)) AS sd,"
          + " sum(price * (1 - disc) * (1 + tax)) AS sc, avg(qty) AS aq, avg(price) AS ap, avg(disc) AS ad,"
          + " count(*) AS n FROM " + FACTS + " WHERE shipped <= DATE '1998-09-02' GROUP BY grp, flag"
          + " ORDER BY grp, flag",
      "SELECT sum(price * disc) AS revenue FROM " + FACTS + " WHERE shipped >= DATE '1994-01-01'"
          + " AND shipped < DATE '1995-01-01' AND disc BETWEEN 0.05 AND 0.07 AND qty < 24",
      "SELECT f.k, sum(f.price * (1 - f.disc)) AS revenue, d.opened, d.pri FROM " + DIMS + " d JOIN " + FACTS
          + " f ON f.k = d.k WHERE d.seg = 'S1' AND d.opened < DATE '1995-03-15' AND f.shipped > DATE '1995-03-15'"
          + " GROUP BY f.k, d.opened, d.pri ORDER BY revenue DESC, d.opened LIMIT 10",
      "SELECT d.seg, count(*) AS n, sum(f.qty) AS q FROM " + FACTS + " f JOIN " + DIMS + " d ON f.k = d.k"
          + " WHERE f.flag = 'F' GROUP BY d.seg ORDER BY d.seg",
      // TPC-H Q2's shape: rows of joins in Calcite's runtime (Enumerable code compiled by Janino) with a correlated
      // scalar sub-query decorrelated into an aggregate (vectorized), ORDER BY and LIMIT. The filter on qty keeps
      // Calcite's row-by-row join to a fiftieth of the facts: what is warmed is its planning and code, not its rows.
      "SELECT d.k, d.seg, d.opened, f.note, f.price FROM " + DIMS + " d, " + FACTS + " f WHERE f.k = d.k"
          + " AND f.qty < 2 AND d.pri = 1 AND d.seg LIKE '%1' AND f.price = (SELECT min(f2.price) FROM " + FACTS
          + " f2, " + DIMS + " d2 WHERE f2.k = d.k AND d2.k = f2.k AND d2.seg <> 'S5')"
          + " ORDER BY f.price DESC, d.seg, d.k LIMIT 100");

  private ExecutorWarmup() {}

  /** What one warm-up did: the rows each statement returned (per run) and the time taken. */
  public record Result(List<Long> rowsPerStatement, long millis) {
    public Result {
      rowsPerStatement = List.copyOf(rowsPerStatement);
    }
  }

  /** The statement runs of one warm-up (each statement {@link #RUNS} times), as its start-up log line counts them. */
  public static int runs() {
    return STATEMENTS.size() * RUNS;
  }

  /**
   * Writes the synthetic tables under {@code scratch} (created, then deleted whatever happens), runs the statements
   * on a private service with {@code options} (each {@link #RUNS} times), and returns the rows each run returned.
   *
   * @param rows fact rows, at least {@link #MIN_ROWS}
   */
  public static Result run(TableEngine engine, Path scratch, QueryOptions options, BufferAllocator parent, int rows)
      throws IOException {
    long started = System.nanoTime();
    try (BufferAllocator allocator = parent.newChildAllocator("warmup", 0, Long.MAX_VALUE)) {
      List<Long> returned = withTables(engine, scratch, allocator, rows, catalog -> {
        List<Long> counts = new ArrayList<>();
        try (QueryService service = new QueryService(catalog, engine, options,
            new VectorRuntime(Runtime.getRuntime().availableProcessors(), 65_536, new ColumnCache(CACHE_BYTES)))) {
          for (String sql : STATEMENTS) {
            for (int run = 0; run < RUNS; run++) {
              counts.add(drain(service, sql, allocator));
            }
          }
        }
        return counts;
      });
      long millis = (System.nanoTime() - started) / 1_000_000;
      LOG.info("executor warm-up rows={} statements={} took={}ms", rows, STATEMENTS.size(), millis);
      return new Result(returned, millis);
    }
  }

  /** Work on the warm-up tables, given the catalog that holds them. */
  @FunctionalInterface
  interface TablesWork<T> {
    T run(Catalog catalog) throws IOException;
  }

  /**
   * Writes the synthetic tables under {@code scratch} (emptied first), hands a catalog of them to {@code work}, then
   * drops them and deletes the directory, whatever happened.
   */
  static <T> T withTables(TableEngine engine, Path scratch, BufferAllocator allocator, int rows, TablesWork<T> work)
      throws IOException {
    if (rows < MIN_ROWS) {
      throw new IllegalArgumentException("a warm-up writes at least " + MIN_ROWS + " rows, not " + rows);
    }
    deleteTree(scratch);
    Files.createDirectories(scratch);
    List<String> locations = new ArrayList<>();
    try {
      PrivateCatalog catalog = new PrivateCatalog();
      int dimRows = Math.max(1, rows / 8);
      String facts = location(scratch, FACTS);
      locations.add(facts);
      long version = 0;
      int perFragment = rows / FRAGMENTS;
      for (int f = 0; f < FRAGMENTS; f++) {
        int from = f * perFragment;
        int to = f == FRAGMENTS - 1 ? rows : from + perFragment;
        StagedData staged = engine.stage(facts, new GeneratedBatches(allocator, factSchema(), from, to, BATCH_ROWS,
            (root, at, i) -> fact(root, at, i, dimRows)));
        version = f == 0 ? engine.create(facts, staged)
            : engine.commit(facts, version, new TableChange.Append(staged));
      }
      catalog.put(FACTS, facts, version, factSchema());
      String dims = location(scratch, DIMS);
      locations.add(dims);
      long dimVersion = engine.create(dims, engine.stage(dims,
          new GeneratedBatches(allocator, dimSchema(), 0, dimRows, BATCH_ROWS, ExecutorWarmup::dim)));
      catalog.put(DIMS, dims, dimVersion, dimSchema());
      return work.run(catalog);
    } finally {
      for (String location : locations) {
        try {
          engine.drop(location);
        } catch (RuntimeException e) {
          LOG.debug("warm-up table not dropped location={} error={}", location, e.toString());
        }
      }
      deleteTree(scratch);
    }
  }

  private static long drain(QueryService service, String sql, BufferAllocator allocator) throws IOException {
    PreparedQuery prepared = service.prepare(sql);
    long rows = 0;
    try (ArrowReader reader = service.execute(sql, prepared.pins(), List.of(), allocator)) {
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
    }
    return rows;
  }

  private static String location(Path scratch, String table) {
    return scratch.resolve(table).resolve(UUID.randomUUID().toString()).toAbsolutePath() + "/";
  }

  static Schema factSchema() {
    return new Schema(List.of(
        field("k", new ArrowType.Int(64, true)),
        field("grp", ArrowType.Utf8.INSTANCE),
        field("flag", ArrowType.Utf8.INSTANCE),
        field("qty", new ArrowType.Decimal(15, 2, 128)),
        field("price", new ArrowType.Decimal(15, 2, 128)),
        field("disc", new ArrowType.Decimal(15, 2, 128)),
        field("tax", new ArrowType.Decimal(15, 2, 128)),
        field("shipped", new ArrowType.Date(DateUnit.DAY)),
        field("note", ArrowType.Utf8.INSTANCE)));
  }

  static Schema dimSchema() {
    return new Schema(List.of(
        field("k", new ArrowType.Int(64, true)),
        field("seg", ArrowType.Utf8.INSTANCE),
        field("opened", new ArrowType.Date(DateUnit.DAY)),
        field("pri", new ArrowType.Int(32, true))));
  }

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.notNullable(type), null);
  }

  /** 1992-01-01 as days since the epoch; the synthetic dates spread over about seven years from there. */
  private static final int FIRST_DAY = 8035;
  private static final String[] GROUPS = {"A", "N", "R"};
  private static final String[] SEGMENTS = {"S1", "S2", "S3", "S4", "S5"};

  /**
   * Row {@code i} of the fact table, written at {@code at} (values are a fixed function of {@code i}; join keys in
   * {@code 1..keys}).
   */
  private static void fact(VectorSchemaRoot root, int at, int i, int keys) {
    long mix = (i * 0x9E3779B97F4A7C15L) >>> 17;
    ((BigIntVector) root.getVector("k")).set(at, 1 + (mix >>> 7) % keys);
    ((VarCharVector) root.getVector("grp")).setSafe(at, bytes(GROUPS[(int) (mix % 3)]));
    ((VarCharVector) root.getVector("flag")).setSafe(at, bytes((mix >>> 3) % 2 == 0 ? "O" : "F"));
    ((DecimalVector) root.getVector("qty")).set(at, 100 * (1 + mix % 50));
    ((DecimalVector) root.getVector("price")).set(at, 90_000 + mix % 10_000_000);
    ((DecimalVector) root.getVector("disc")).set(at, mix % 11);
    ((DecimalVector) root.getVector("tax")).set(at, (mix >>> 5) % 9);
    ((DateDayVector) root.getVector("shipped")).set(at, FIRST_DAY + (int) (mix % 2_500));
    ((VarCharVector) root.getVector("note")).setSafe(at, bytes("note " + (mix % 1_000)));
  }

  private static void dim(VectorSchemaRoot root, int at, int i) {
    ((BigIntVector) root.getVector("k")).set(at, i + 1L);
    ((VarCharVector) root.getVector("seg")).setSafe(at, bytes(SEGMENTS[i % SEGMENTS.length]));
    ((DateDayVector) root.getVector("opened")).set(at, FIRST_DAY + (i * 7) % 2_500);
    ((IntVector) root.getVector("pri")).set(at, i % 3);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The warm-up's own tables; nothing else is visible to its service. */
  private static final class PrivateCatalog implements Catalog {
    private final Map<String, TableRegistration> tables = new ConcurrentHashMap<>();

    void put(String name, String location, long version, Schema schema) {
      Instant now = Instant.now();
      tables.put(name, new TableRegistration(name, UUID.randomUUID().toString(), location, version, schema.toJson(),
          1, now, now));
    }

    @Override
    public Optional<TableRegistration> table(String name) {
      return Optional.ofNullable(tables.get(dev.lake.registry.TableNames.normalize(name)));
    }

    @Override
    public List<TableRegistration> tables() {
      return new ArrayList<>(tables.values());
    }

    @Override
    public List<VersionRecord> history(String name, String generation) {
      TableRegistration table = tables.get(dev.lake.registry.TableNames.normalize(name));
      return table == null || !table.generation().equals(generation) ? List.of()
          : List.of(new VersionRecord(table.name(), table.generation(), table.version(), table.updatedAt()));
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
