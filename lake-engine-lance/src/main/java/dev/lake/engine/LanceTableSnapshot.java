package dev.lake.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.fragment.DataFile;
import org.lance.fragment.DeletionFile;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.lance.schema.LanceField;
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
  private final DatasetHandle dataset;
  /** Opens a dataset of this version in the snapshot's allocator, for SQL and takes (a shared one is not). */
  private final java.util.function.Supplier<Tracked<Dataset>> ownOpener;
  private Tracked<Dataset> own;
  private final BufferAllocator allocator;
  private final OpenHandles handles;
  private final Schema schema;
  private final Set<TrackedReader> openReaders = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Object lock = new Object();
  /** {@link #fragmentKey} of each fragment, read on first use. */
  private volatile VersionFragments fragments;
  private volatile List<TableIndex> indexes;

  /**
   * The dataset a snapshot reads: its own, opened in its allocator and closed with it, or a lease on one kept open
   * across snapshots ({@link SharedDatasets}), given back when the snapshot closes.
   */
  interface DatasetHandle extends AutoCloseable {
    Dataset get();

    /** Whether the dataset was opened in the snapshot's allocator (SQL and takes may run on it directly). */
    boolean ownAllocator();

    /** The version's Arrow schema (a kept dataset converts it once for all its snapshots). */
    default Schema schema() {
      return get().getSchema();
    }

    /** The version's indexes (a kept dataset lists them once for all its snapshots). */
    default List<TableIndex> indexes() {
      return LanceIndexes.list(get());
    }

    /** The version's fragments ({@code read} reads them; a kept dataset once for all its snapshots). */
    default VersionFragments fragments(java.util.function.Function<Dataset, VersionFragments> read) {
      return read.apply(get());
    }

    static DatasetHandle of(Tracked<Dataset> tracked) {
      return new DatasetHandle() {
        @Override
        public Dataset get() {
          return tracked.get();
        }

        @Override
        public boolean ownAllocator() {
          return true;
        }

        @Override
        public void close() throws Exception {
          tracked.close();
        }
      };
    }

    static DatasetHandle of(SharedDatasets.Lease lease) {
      return new DatasetHandle() {
        @Override
        public Dataset get() {
          return lease.get();
        }

        @Override
        public boolean ownAllocator() {
          return false;
        }

        @Override
        public Schema schema() {
          return lease.schema();
        }

        @Override
        public List<TableIndex> indexes() {
          return lease.indexes(LanceIndexes::list);
        }

        @Override
        public VersionFragments fragments(java.util.function.Function<Dataset, VersionFragments> read) {
          return lease.fragments(read);
        }

        @Override
        public void close() {
          lease.close();
        }
      };
    }
  }

  LanceTableSnapshot(LanceLocation location, long version, Tracked<Dataset> dataset, BufferAllocator allocator,
      OpenHandles handles) {
    this(location, version, DatasetHandle.of(dataset), () -> dataset, allocator, handles);
  }

  /**
   * @param ownOpener opens this version in {@code allocator}: what SQL and takes run on when {@code dataset} was not
   *     opened in it (Lance puts their batches in the dataset's allocator), once, closed with the snapshot
   */
  LanceTableSnapshot(LanceLocation location, long version, DatasetHandle dataset,
      java.util.function.Supplier<Tracked<Dataset>> ownOpener, BufferAllocator allocator, OpenHandles handles) {
    this.location = location;
    this.version = version;
    this.dataset = dataset;
    this.ownOpener = ownOpener;
    this.allocator = allocator;
    this.handles = handles;
    this.schema = dataset.schema();
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
        known = dataset.indexes();
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
    return fragments().ids();
  }

  @Override
  public long fragmentRows(int fragment) {
    VersionFragments known = fragments();
    known.check(fragment, version);
    return known.rows(fragment, id -> {
      checkOpen();
      synchronized (lock) {
        checkOpen();
        try {
          return dataset.get().getFragment(id).countRows();
        } catch (RuntimeException e) {
          throw LanceErrors.translate("counting rows of fragment " + id + " of version " + version, location, e,
              LanceErrors.Input.NONE);
        }
      }
    });
  }

  @Override
  public String fragmentKey(int fragment) {
    VersionFragments known = fragments();
    known.check(fragment, version);
    return known.key(fragment);
  }

  /**
   * The version's fragments: their ids and keys read from the opened manifest once (a version's fragments never
   * change), shared by every snapshot of a kept version; their row counts counted on first use.
   */
  private VersionFragments fragments() {
    VersionFragments known = fragments;
    if (known == null) {
      checkOpen();
      synchronized (lock) {
        checkOpen();
        try {
          known = dataset.fragments(this::readFragments);
        } catch (RuntimeException e) {
          throw LanceErrors.translate("reading fragment metadata of version " + version, location, e,
              LanceErrors.Input.NONE);
        }
      }
      fragments = known;
    }
    return known;
  }

  private VersionFragments readFragments(Dataset opened) {
    StringBuilder schemaIds = new StringBuilder();
    for (LanceField field : opened.getLanceSchema().fields()) {
      schemaIds.append(field.getName()).append('=').append(field.getId()).append(':').append(field.getType())
          .append(',');
    }
    List<Integer> ids = new ArrayList<>();
    Map<Integer, String> keys = new HashMap<>();
    for (Fragment fragment : opened.getFragments()) {
      FragmentMetadata metadata = fragment.metadata();
      ids.add(metadata.getId());
      keys.put(metadata.getId(), fragmentKey(metadata, schemaIds));
    }
    return new VersionFragments(ids, keys);
  }

  private String fragmentKey(FragmentMetadata metadata, CharSequence schemaIds) {
    StringBuilder key = new StringBuilder(location.location()).append("\u0000").append(schemaIds)
        .append("\u0000fragment=").append(metadata.getId()).append(" rows=").append(metadata.getPhysicalRows());
    for (DataFile file : metadata.getFiles()) {
      key.append(" file=").append(file.getPath()).append('@').append(file.getBaseId().map(String::valueOf).orElse(""))
          .append(Arrays.toString(file.getFields())).append(Arrays.toString(file.getColumnIndices()));
    }
    DeletionFile deletions = metadata.getDeletionFile();
    if (deletions == null) {
      key.append(" deletions=none");
    } else {
      key.append(" deletions=").append(deletions.getId()).append('-').append(deletions.getReadVersion()).append('-')
          .append(deletions.getFileType()).append('@')
          .append(deletions.getBaseId().map(String::valueOf).orElse(""));
    }
    return key.toString();
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
    if (!columns.isEmpty() && !everyColumnInOrder(columns)) {
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
        // the snapshot's allocator, also for a shared dataset: the scan's batches count against this query
        scanner = Tracked.of(LanceScanner.create(dataset.get(), options.build(), allocator), handles);
        Tracked<ArrowReader> batches = Tracked.of(scanner.get().scanBatches(), handles);
        return register(batches, List.of(scanner), action);
      } catch (RuntimeException e) {
        closeQuietly(scanner);
        throw LanceErrors.translate(action, location, e, LanceErrors.Input.EXPRESSION);
      }
    }
  }

  /**
   * Whether {@code columns} are the version's columns in its order ({@code SELECT *}): Lance then scans without a
   * projection, which answers the same batches and saves building one per scan (docs/performance.md, "Point
   * queries and scalar indexes").
   */
  private boolean everyColumnInOrder(List<String> columns) {
    List<org.apache.arrow.vector.types.pojo.Field> fields = schema.getFields();
    if (columns.size() != fields.size()) {
      return false;
    }
    for (int i = 0; i < fields.size(); i++) {
      if (!fields.get(i).getName().equals(columns.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public ArrowReader readRows(List<String> columns, long offset, int count) {
    Objects.requireNonNull(columns, "columns");
    if (columns.isEmpty() || offset < 0 || count <= 0) {
      throw new IllegalArgumentException("readRows needs columns, offset >= 0 and count > 0; were " + columns.size()
          + " columns, offset " + offset + ", count " + count);
    }
    checkOpen();
    List<Long> offsets = new ArrayList<>(count);
    for (long row = offset; row < offset + count; row++) {
      offsets.add(row);
    }
    String action = "reading rows " + offset + ".." + (offset + count - 1) + " of version " + version + " ("
        + columns.size() + " columns from " + columns.get(0) + ")";
    synchronized (lock) {
      checkOpen();
      long rows;
      try {
        rows = dataset.get().countRows();
      } catch (RuntimeException e) {
        throw LanceErrors.translate(action, location, e, LanceErrors.Input.NONE);
      }
      if (offset + count > rows) {
        throw new IllegalArgumentException(action + ": the version has only " + rows + " rows");
      }
      try {
        // Lance's take maps row offsets to fragments (skipping deleted rows) and reads only the columns named: no
        // scan plan, so none of the per-column schema conversions a scanner's projection costs on a wide table
        Tracked<ArrowReader> batches = Tracked.of(ownDataset().take(offsets, List.copyOf(columns)), handles);
        return register(batches, List.of(), action);
      } catch (IOException | RuntimeException e) {
        throw LanceErrors.translate(action, location, e, LanceErrors.Input.NONE);
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
            Tracked.of(ownDataset().sql(sql).tableName(tableName).intoBatchRecords(), handles);
        return register(batches, List.of(), action);
      } catch (IOException | RuntimeException e) {
        throw LanceErrors.translate(action, location, e, LanceErrors.Input.EXPRESSION);
      }
    }
  }

  /** The dataset opened in this snapshot's allocator (opened on first use when the snapshot reads a shared one). */
  private Dataset ownDataset() {
    if (dataset.ownAllocator()) {
      return dataset.get();
    }
    if (own == null) { // under lock
      own = ownOpener.get();
    }
    return own.get();
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
    if (own != null) {
      closeQuietly(own);
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
