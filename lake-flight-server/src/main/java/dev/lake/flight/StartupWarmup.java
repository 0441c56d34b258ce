package dev.lake.flight;

import dev.lake.engine.LanceTableEngine;
import dev.lake.query.Catalog;
import dev.lake.query.ExecutorWarmup;
import dev.lake.query.PreparedQuery;
import dev.lake.query.QueryOptions;
import dev.lake.query.QueryService;
import dev.lake.registry.TableRegistration;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a node does before it reports ready (docs/operations.md, "Start-up and readiness"): readiness means "a query
 * of a registered table is answered now", so the first query must not pay for what a node needs once. In order:
 * the catalog snapshot (one listing of the registry; its tables are queued for the background statistics analysis,
 * {@code query.auto-analyze}, which skips versions analyzed before), then — when configured ({@code query.warmup-rows}) — the
 * executor phase ({@link dev.lake.query.ExecutorWarmup}: a few statements over synthetic tables of its own, so the
 * JIT has compiled the planner's and the vectorized executor's code before a client's first query; it touches no
 * registered table and no cache of the node; a failure there is logged and skipped, it never holds readiness back),
 * then one real query of a registered table through the query service (it loads Lance's native library, opens the
 * dataset at its registered version, plans with Calcite), drained to its first batch. Each phase is logged with its
 * time; until the last one has finished {@link #pending()} says which phase is running. A failed warm-up is logged and retried (the server runs it on the
 * thread {@code lake-warmup}), never fatal: the node serves anyway, and readiness stays false until a query of a
 * registered table works.
 */
final class StartupWarmup {
  private static final Logger LOG = LoggerFactory.getLogger(StartupWarmup.class);

  private final Catalog catalog;
  private final QueryService query;
  private final BufferAllocator allocator;
  private final LongSupplier nanoTime;
  private final Phase executor;
  private final java.util.function.Consumer<TableRegistration> analysis;
  private boolean executorDone;
  private final AtomicReference<String> state = new AtomicReference<>("not started");
  private volatile boolean done;

  /** A warm-up phase: runs once, returns what to log about it. */
  @FunctionalInterface
  interface Phase {
    String run() throws Exception;
  }

  StartupWarmup(Catalog catalog, QueryService query, BufferAllocator allocator, LongSupplier nanoTime) {
    this(catalog, query, allocator, nanoTime, null);
  }

  /** @param executor the executor phase, or null for none */
  StartupWarmup(Catalog catalog, QueryService query, BufferAllocator allocator, LongSupplier nanoTime,
      Phase executor) {
    this(catalog, query, allocator, nanoTime, executor, registration -> { });
  }

  /**
   * @param executor the executor phase, or null for none
   * @param analysis queues every table of the catalog snapshot for the background analysis ({@code query.auto-analyze}:
   *     versions it has not finished before the last stop are analyzed; analyzed ones cost nothing). It is not the
   *     node's registration listener: the warm-up tells the catalog nothing (docs/architecture.md, "Read-your-writes")
   */
  StartupWarmup(Catalog catalog, QueryService query, BufferAllocator allocator, LongSupplier nanoTime,
      Phase executor, java.util.function.Consumer<TableRegistration> analysis) {
    this.analysis = analysis;
    this.executor = executor;
    this.executorDone = executor == null;
    this.catalog = catalog;
    this.query = query;
    this.allocator = allocator;
    this.nanoTime = nanoTime;
  }

  /** Empty once warmed; otherwise what is still running or what failed. */
  Optional<String> pending() {
    return done ? Optional.empty() : Optional.of(state.get());
  }

  /** Runs the warm-up on the calling thread; returns true when it finished. Safe to call again after a failure. */
  synchronized boolean run() {
    if (done) {
      return true;
    }
    long started = nanoTime.getAsLong();
    List<String> phases = new ArrayList<>();
    try {
      state.set("running: catalog snapshot");
      long t = nanoTime.getAsLong();
      List<TableRegistration> tables = catalog.tables();
      phases.add(phase("catalog", t, "tables=" + tables.size()));
      tables.forEach(analysis);
      if (!executorDone) {
        state.set("running: executor warm-up");
        t = nanoTime.getAsLong();
        try {
          String detail = executor.run();
          phases.add(phase("executor", t, detail));
        } catch (Exception | AssertionError | LinkageError e) {
          LOG.warn("start-up executor warm-up failed after {}ms (skipped; first queries pay the JIT): {}",
              millis(t), e.toString());
        }
        executorDone = true;
      }
      Optional<TableRegistration> sample = tables.stream().min(Comparator.comparing(TableRegistration::name));
      if (sample.isPresent()) {
        state.set("running: first query of table '" + sample.get().name() + "'");
        t = nanoTime.getAsLong();
        String sql = "SELECT * FROM \"" + sample.get().name() + "\" LIMIT 1";
        PreparedQuery prepared = query.prepare(sql);
        try (ArrowReader reader = query.execute(sql, prepared.pins(), List.of(), allocator)) {
          reader.loadNextBatch();
        }
        phases.add(phase("first-query", t, "table=" + sample.get().name() + " version="
            + sample.get().version()));
      }
      done = true;
      long jvmMillis = ManagementFactory.getRuntimeMXBean().getUptime();
      LOG.info("start-up phase=ready took={}ms sinceJvmStart={}ms phases={}", millis(started), jvmMillis, phases);
      return true;
    } catch (Exception | AssertionError | LinkageError e) {
      state.set("failed: " + e.getMessage());
      LOG.warn("start-up warm-up failed after {}ms (retried at the next readiness check): {}", millis(started),
          e.toString());
      return false;
    }
  }

  private String phase(String name, long startedNanos, String detail) {
    long ms = millis(startedNanos);
    LOG.info("start-up phase={} took={}ms {}", name, ms, detail);
    return name + "=" + ms + "ms";
  }

  private long millis(long startedNanos) {
    return (nanoTime.getAsLong() - startedNanos) / 1_000_000;
  }

  /**
   * The executor phase ({@code query.warmup-rows}; 0: none, null returned): synthetic tables written by a local engine
   * of its own under {@code dir} ({@code <data.dir>/warmup}, never the data root, which may be an object store).
   */
  static Phase executorPhase(Path dir, int rows, QueryOptions options, BufferAllocator allocator) {
    if (rows == 0) {
      return null;
    }
    return () -> {
      try (BufferAllocator child = allocator.newChildAllocator("warmup-engine", 0, Long.MAX_VALUE);
          LanceTableEngine local = new LanceTableEngine(child, Map.of())) {
        ExecutorWarmup.Result result = ExecutorWarmup.run(local, dir, options, child, rows);
        return "rows=" + rows + " runs=" + result.rowsPerStatement().size();
      }
    };
  }
}
