package dev.lake.metasrv;

import dev.lake.registry.MetaStore;
import dev.lake.registry.Page;
import dev.lake.registry.TableRegistration;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs retention over every table and the dropped-incarnation collector at a fixed interval, on one named
 * background thread, only while this node is the leader. A failing table is logged and the pass goes on.
 */
public final class MaintenanceScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceScheduler.class);
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "lake-maintenance");
    t.setDaemon(true);
    return t;
  });
  private final MetaStore store;
  private final Maintenance maintenance;
  private final Leadership leadership;

  public MaintenanceScheduler(MetaStore store, Maintenance maintenance, Leadership leadership) {
    this.store = store;
    this.maintenance = maintenance;
    this.leadership = leadership;
  }

  public void start(Duration interval) {
    long ms = interval.toMillis();
    executor.scheduleWithFixedDelay(this::runOnce, ms, ms, TimeUnit.MILLISECONDS);
  }

  /** One pass: garbage collection, then retention for each table. */
  public void runOnce() {
    if (!leadership.isLeader()) {
      return;
    }
    try {
      maintenance.collectGarbage();
      Optional<String> cursor = Optional.empty();
      do {
        Page<TableRegistration> page = store.list(cursor, 200);
        for (TableRegistration r : page.items()) {
          try {
            maintenance.retain(r.name());
          } catch (RuntimeException e) {
            LOG.warn("retention failed table={}", r.name(), e);
          }
        }
        cursor = page.next();
      } while (cursor.isPresent());
    } catch (RuntimeException e) {
      LOG.warn("maintenance pass failed", e);
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
