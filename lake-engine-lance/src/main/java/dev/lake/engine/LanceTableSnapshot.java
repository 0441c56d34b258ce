package dev.lake.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Lance dataset handle opened at exactly one version. Scans and SQL run on that handle, so they see that
 * version only. Closing the snapshot closes any reader still open (a cancelled query), then the dataset.
 */
final class LanceTableSnapshot implements TableSnapshot {
  private static final Logger LOG = LoggerFactory.getLogger(LanceTableSnapshot.class);
  /** Longest filter text echoed in messages (they may travel in gRPC trailers). */
  private static final int MAX_ECHO = 200;

  private final LanceLocation location;
  private final long version;
  private final Tracked<Dataset> dataset;
  private final BufferAllocator allocator;
  private final OpenHandles handles;
  private final Schema schema;
  private final Set<TrackedReader> openReaders = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Object lock = new Object();
  private volatile List<TableIndex> indexes;

  LanceTableSnapshot(LanceLocation location, long version, Tracked<Dataset> dataset, BufferAllocator allocator,
      OpenHandles handles) {
    this.location = location;
    this.version = version;
    this.dataset = dataset;
    this.allocator = allocator;
    this.handles = handles;
    this.schema = dataset.get().getSchema();
  }

  @Override
  public String location() {
    return location.location();
  }

  @Override
  public long version() {
    return version;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public List<TableIndex> indexes() {
    List<TableIndex> known = indexes;
    if (known == null) {
      checkOpen();
      try {
        known = LanceIndexes.list(dataset.get());
      } catch (RuntimeException e) {
        throw LanceErrors.translate("listing the indexes of version " + version, location, e,
            LanceErrors.Input.NONE);
      }
      indexes = known; // a version's indexes never change: racing readers compute the same list
    }
    return known;
  }

  @Override
  public long countRows() {
    checkOpen();
    try {
      return dataset.get().countRows();
    } catch (RuntimeException e) {
      throw LanceErrors.translate("counting rows of version " + version, location, e, LanceErrors.Input.NONE);
    }
  }

  @Override
  public List<Integer> fragmentIds() {
    checkOpen();
    synchronized (lock) {
      checkOpen();
      try {
        List<Integer> ids = new ArrayList<>();
        dataset.get().getFragments().forEach(fragment -> ids.add(fragment.getId()));
        return ids;
      } catch (RuntimeException e) {
        throw LanceErrors.translate("listing fragments of version " + version, location, e, LanceErrors.Input.NONE);
      }
    }
  }

  @Override
  public long fragmentRows(int fragment) {
    checkOpen();
    synchronized (lock) {
      checkOpen();
      try {
        return dataset.get().getFragment(fragment).countRows();
      } catch (RuntimeException e) {
        throw LanceErrors.translate("counting rows of fragment " + fragment + " of version " + version, location, e,
            LanceErrors.Input.NONE);
      }
    }
  }

  @Override
  public ArrowReader scanFragments(List<String> columns, Optional<String> filter, List<Integer> fragments, long offset,
      Optional<Long> limit, int batchSize) {
    Objects.requireNonNull(fragments, "fragments");
    if (offset < 0) {
      throw new IllegalArgumentException("offset must not be negative, was " + offset);
    }
    return scan(columns, filter, limit, batchSize, Optional.of(List.copyOf(fragments)), offset);
  }

  @Override
  public ArrowReader scan(List<String> columns, Optional<String> filter, Optional<Long> limit, int batchSize) {
    return scan(columns, filter, limit, batchSize, Optional.empty(), 0);
  }

  private ArrowReader scan(List<String> columns, Optional<String> filter, Optional<Long> limit, int batchSize,
      Optional<List<Integer>> fragments, long offset) {
    Objects.requireNonNull(columns, "columns");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(limit, "limit");
    if (batchSize <= 0) {
      throw new IllegalArgumentException("batchSize must be positive, was " + batchSize);
    }
    limit.ifPresent(l -> {
      if (l < 0) {
        throw new IllegalArgumentException("limit must not be negative, was " + l);
      }
    });
    checkOpen();
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(batchSize);
    if (!columns.isEmpty()) {
      options.columns(List.copyOf(columns));
    }
    filter.filter(f -> !f.isBlank()).ifPresent(options::filter);
    limit.ifPresent(options::limit);
    fragments.ifPresent(options::fragmentIds);
    if (offset > 0) {
      options.offset(offset);
    }
    String action = "scan of version " + version + describe(columns, filter, limit)
        + fragments.map(f -> " fragments=" + f).orElse("") + (offset > 0 ? " offset=" + offset : "");
    synchronized (lock) {
      checkOpen();
      Tracked<LanceScanner> scanner = null;
      try {
        scanner = Tracked.of(dataset.get().newScan(options.build()), handles);
        Tracked<ArrowReader> batches = Tracked.of(scanner.get().scanBatches(), handles);
        return register(batches, List.of(scanner), action);
      } catch (RuntimeException e) {
        closeQuietly(scanner);
        throw LanceErrors.translate(action, location, e, LanceErrors.Input.EXPRESSION);
      }
    }
  }

  @Override
  public ArrowReader sql(String sql, String tableName) {
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(tableName, "tableName");
    checkOpen();
    String action = "SQL on version " + version + " (table name " + tableName + ")";
    synchronized (lock) {
      checkOpen();
      try {
        Tracked<ArrowReader> batches =
            Tracked.of(dataset.get().sql(sql).tableName(tableName).intoBatchRecords(), handles);
        return register(batches, List.of(), action);
      } catch (IOException | RuntimeException e) {
        throw LanceErrors.translate(action, location, e, LanceErrors.Input.EXPRESSION);
      }
    }
  }

  private ArrowReader register(Tracked<ArrowReader> batches, List<Tracked<?>> dependencies, String action) {
    TrackedReader[] self = new TrackedReader[1];
    TrackedReader reader = new TrackedReader(allocator, batches, dependencies, action, location,
        () -> openReaders.remove(self[0]));
    self[0] = reader;
    openReaders.add(reader);
    return reader;
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (closed.compareAndSet(false, true)) {
        closeAll();
      }
    }
  }

  private void closeAll() {
    List<TrackedReader> leftOpen = new ArrayList<>(openReaders);
    if (!leftOpen.isEmpty()) {
      LOG.debug("closing snapshot with open readers location={} version={} readers={}", location, version,
          leftOpen.size());
    }
    for (TrackedReader reader : leftOpen) {
      closeQuietly(reader);
    }
    try {
      dataset.close();
    } catch (Exception e) {
      LOG.warn("closing dataset failed location={} version={} error={}", location, version,
          LanceErrors.detail(e));
    }
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("the snapshot of " + location.location() + " at version " + version
          + " is closed; open the version again");
    }
  }

  private static String describe(List<String> columns, Optional<String> filter, Optional<Long> limit) {
    StringBuilder text = new StringBuilder();
    if (!columns.isEmpty()) {
      text.append(" columns=").append(columns);
    }
    filter.ifPresent(f -> text.append(" filter=[").append(truncate(f)).append(']'));
    limit.ifPresent(l -> text.append(" limit=").append(l));
    return text.toString();
  }

  private static String truncate(String text) {
    return text.length() <= MAX_ECHO ? text : text.substring(0, MAX_ECHO) + "...";
  }

  private void closeQuietly(AutoCloseable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (Exception e) {
      LOG.warn("closing a Lance handle failed location={} version={} error={}", location, version,
          LanceErrors.detail(e));
    }
  }
}
