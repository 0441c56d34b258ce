package dev.lake.query.exec;

import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.query.model.TablePin;
import dev.lake.query.plan.lance.ColumnStatistics;
import dev.lake.registry.RegistrationListener;
import dev.lake.registry.TableRegistration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Analyzes each table version this node registers, in the background: every column of the new version is sketched
 * by {@link DistinctValueEstimates} (kept across restarts by its {@link KeptSketches}), so the first query over the
 * version plans without sketching (docs/performance.md, "Cold"). It is told of registrations as a
 * {@link RegistrationListener} and only queues them: the write's acknowledgement never waits for it. One named
 * thread ({@code lake-analyze}) sketches one column at a time, so it takes at most one statement of Lance's SQL engine
 * away from ingest and queries; of several versions of a table registered while it was busy only the newest is
 * analyzed, and a version whose estimates are already kept (or reusable after a small append) costs no sketch. A
 * failure is logged and skipped — the planner then sketches on demand, as without it. {@link #close()} stops it: a
 * queued table is dropped, a running one stops after its current column.
 */
public final class AutoAnalyze implements RegistrationListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AutoAnalyze.class);
  /** Tables waiting at most (one task per table name is queued). */
  private static final int MAX_QUEUED = 1_024;
  private static final long CLOSE_WAIT_SECONDS = 30;

  private final TableEngine engine;
  private final DistinctValueEstimates estimates;
  private final BufferAllocator allocator;
  private final long memoryLimit;
  /** The newest registered version waiting to be analyzed, by table name. */
  private final Map<String, TablePin> pending = new ConcurrentHashMap<>();
  private final ThreadPoolExecutor worker;
  private volatile boolean closed;

  /**
   * @param allocator the parent of each analysis' allocator (Lance SQL results of the sketches)
   * @param memoryLimit the most Arrow memory one analysis may hold on the Java side
   */
  public AutoAnalyze(TableEngine engine, DistinctValueEstimates estimates, BufferAllocator allocator, long memoryLimit) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.estimates = Objects.requireNonNull(estimates, "estimates");
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    this.memoryLimit = memoryLimit;
    this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(MAX_QUEUED),
        runnable -> {
          Thread thread = new Thread(runnable, "lake-analyze");
          thread.setDaemon(true);
          return thread;
        });
  }

  /** Queues the registered version for analysis (never blocks, never throws). */
  @Override
  public void registered(TableRegistration registration) {
    queue(registration);
  }

  /**
   * Queues the registered version of a table for analysis (a restarted node's tables at start-up: versions left
   * unanalyzed at the last stop are analyzed, analyzed ones cost nothing).
   */
  public void queue(TableRegistration registration) {
    analyze(TablePin.of(registration));
  }

  /** Forgets a queued version of the dropped incarnation. */
  @Override
  public void dropped(String name, String generation) {
    TablePin queued = pending.get(dev.lake.registry.TableNames.normalize(name));
    if (queued != null && queued.generation().equals(generation)) {
      pending.remove(queued.name(), queued);
    }
  }

  /** Queues {@code pin} for analysis, replacing an older version of its table that is still waiting. */
  public void analyze(TablePin pin) {
    Objects.requireNonNull(pin, "pin");
    if (closed || pending.put(pin.name(), pin) != null) {
      return;
    }
    try {
      worker.execute(() -> run(pin.name()));
    } catch (RejectedExecutionException e) {
      pending.remove(pin.name(), pin);
      LOG.debug("statistics analysis not queued table={} version={} reason={}", pin.name(), pin.version(),
          closed ? "closed" : "queue full");
    }
  }

  private void run(String name) {
    TablePin pin = pending.remove(name);
    if (pin == null || closed) {
      return;
    }
    long started = System.nanoTime();
    int columns = 0;
    try (QueryResources resources = new QueryResources(allocator, "analyze-" + name, memoryLimit)) {
      TableSnapshot snapshot = resources.open(engine, pin);
      ColumnStatistics statistics = estimates.of(snapshot, resources);
      for (Field field : snapshot.schema().getFields()) {
        if (closed || Thread.currentThread().isInterrupted()) {
          return;
        }
        statistics.distinctValues(List.of(field.getName()));
        columns++;
      }
      LOG.info("statistics analyzed table={} version={} columns={} millis={}", pin.name(), pin.version(), columns,
          (System.nanoTime() - started) / 1_000_000);
    } catch (RuntimeException e) {
      LOG.warn("statistics analysis failed table={} version={} error={}", pin.name(), pin.version(),
          e.getMessage());
    }
  }

  /** Stops analyzing: queued tables are dropped; waits (at most 30 s) for the column being sketched. */
  @Override
  public void close() {
    closed = true;
    pending.clear();
    worker.getQueue().clear();
    // no interrupt: a sketch being kept writes the statistics file, which an interrupt would close mid-write
    worker.shutdown();
    try {
      if (!worker.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn("statistics analysis still running after {} s at close", CLOSE_WAIT_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
