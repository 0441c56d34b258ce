package dev.lake.engine;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link TableEngine} over the Lance Java SDK. Every operation works in its own child of the root allocator (a
 * snapshot uses the caller's), builds a fresh Lance transaction per commit and closes every Lance object it opens;
 * {@link #openHandles()} counts those still open. Lance's failures become {@link EngineException}s in
 * {@link LanceErrors}.
 */
public final class LanceTableEngine implements TableEngine {
  private static final Logger LOG = LoggerFactory.getLogger(LanceTableEngine.class);

  private final BufferAllocator rootAllocator;
  private final StorageOptions storageOptions;
  private final OpenHandles handles = new OpenHandles();
  private final LanceDatasets datasets;
  private final VersionHistory history;
  private final LanceStager stager;
  private final LanceCommits commits;
  private final LanceCompactions compactions;
  private final LanceCleanup cleanup;
  private final DataFiles files;
  private final LanceIndexes indexes;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Pinned versions kept open across snapshots, and the allocator they were opened in (scans use their own). */
  private final SharedDatasets shared;
  private final BufferAllocator sharedAllocator;

  /**
   * @param rootAllocator the allocator each operation takes a child of; not closed by the engine
   * @param storageOptions Lance storage options for every location (empty for local disk; S3 credentials,
   *     region and endpoint otherwise)
   */
  public LanceTableEngine(BufferAllocator rootAllocator, Map<String, String> storageOptions) {
    this(rootAllocator, storageOptions, List.of(new LocalObjectStore()));
  }

  /**
   * @param rootAllocator the allocator each operation takes a child of; not closed by the engine
   * @param storageOptions Lance storage options for every location
   * @param objectStores the stores that list and delete files under locations (file APIs and drop); the first
   *     that {@link ObjectStore#serves serves} a location is used
   */
  public LanceTableEngine(BufferAllocator rootAllocator, Map<String, String> storageOptions,
      List<ObjectStore> objectStores) {
    this(rootAllocator, StorageOptions.fixed(storageOptions), objectStores);
  }

  /**
   * @param rootAllocator the allocator each operation takes a child of; not closed by the engine
   * @param storageOptions asked for the Lance storage options at every Lance call (so expiring credentials are
   *     resolved per operation: see {@link S3StorageOptions})
   * @param objectStores the stores that list and delete files under locations (file APIs and drop); the first
   *     that {@link ObjectStore#serves serves} a location is used
   */
  public LanceTableEngine(BufferAllocator rootAllocator, StorageOptions storageOptions,
      List<ObjectStore> objectStores) {
    this.rootAllocator = Objects.requireNonNull(rootAllocator, "rootAllocator");
    this.storageOptions = Objects.requireNonNull(storageOptions, "storageOptions");
    this.datasets = new LanceDatasets(this.storageOptions, handles);
    this.shared = new SharedDatasets(handles);
    this.sharedAllocator = rootAllocator.newChildAllocator("lance-shared-datasets", 0, rootAllocator.getLimit());
    this.history = new VersionHistory(handles);
    this.stager = new LanceStager(this.storageOptions);
    NeutralityCheck neutrality = new NeutralityCheck(history);
    this.commits = new LanceCommits(this.storageOptions, handles, datasets, neutrality);
    this.compactions = new LanceCompactions(handles, datasets, neutrality);
    this.cleanup = new LanceCleanup(datasets);
    this.indexes = new LanceIndexes(handles, datasets, neutrality);
    this.files = new DataFiles(Objects.requireNonNull(objectStores, "objectStores"), datasets);
  }

  @Override
  public StagedData stage(String location, ArrowReader data) {
    Objects.requireNonNull(data, "data");
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    try (BufferAllocator allocator = child("stage")) {
      return stager.stage(at, data, allocator);
    }
  }

  @Override
  public long create(String location, StagedData data) {
    Objects.requireNonNull(data, "data");
    LanceLocation at = LanceLocation.of(location);
    checkStagedAt(at, data);
    checkOpen();
    if (exists(location)) {
      throw new LocationExistsException(location);
    }
    try (BufferAllocator allocator = child("create")) {
      return commits.create(at, data, allocator);
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate("creating the dataset", at, e, LanceErrors.Input.DATA);
    }
  }

  @Override
  public long commit(String location, long readVersion, TableChange change) {
    Objects.requireNonNull(change, "change");
    LanceLocation at = LanceLocation.of(location);
    checkStagedAt(at, change instanceof TableChange.Append append
        ? append.data() : ((TableChange.Overwrite) change).data());
    checkOpen();
    try (BufferAllocator allocator = child("commit")) {
      return commits.commit(at, readVersion, change, allocator);
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      String kind = change instanceof TableChange.Append ? "Append" : "Overwrite";
      throw LanceErrors.translate("committing " + kind + " on read version " + readVersion, at, e,
          LanceErrors.Input.DATA);
    }
  }

  @Override
  public long restore(String location, long version) {
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    try (BufferAllocator allocator = child("restore")) {
      return commits.restore(at, version, allocator);
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate("restoring version " + version, at, e, LanceErrors.Input.NONE);
    }
  }

  @Override
  public long createIndex(String location, long readVersion, IndexSpec spec) {
    Objects.requireNonNull(spec, "spec");
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    try (BufferAllocator allocator = child("index")) {
      return indexes.create(at, readVersion, spec, allocator);
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate("building index " + spec.name() + " on read version " + readVersion, at, e,
          LanceErrors.Input.DATA);
    }
  }

  @Override
  public List<TableIndex> indexes(String location, long version) {
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    String action = "listing the indexes of version " + version;
    try (BufferAllocator allocator = child("indexes");
        Tracked<Dataset> dataset = datasets.open(at, Optional.of(version), allocator, action)) {
      return LanceIndexes.list(dataset.get());
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
    }
  }

  @Override
  public long latestVersion(String location) {
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    String action = "reading the latest version";
    try (BufferAllocator allocator = child("latest");
        Tracked<Dataset> latest = datasets.open(at, Optional.empty(), allocator, action)) {
      return latest.get().version();
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
    }
  }

  @Override
  public List<Long> dataChangingVersionsAfter(String location, long afterVersion) {
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    String action = "listing data-changing versions after " + afterVersion;
    try (BufferAllocator allocator = child("history");
        Tracked<Dataset> latest = datasets.open(at, Optional.empty(), allocator, action)) {
      return history.operations(latest.get(), afterVersion + 1, latest.get().version()).stream()
          .filter(v -> !v.dataNeutral())
          .map(VersionOperation::version)
          .toList();
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
    }
  }

  @Override
  public Optional<CompactionWork> prepareCompaction(String location, long readVersion, CompactionOptions options) {
    Objects.requireNonNull(options, "options");
    LanceLocation at = LanceLocation.of(location);
    return withAllocator("compact", allocator -> compactions.prepare(at, readVersion, options, allocator));
  }

  @Override
  public long commitCompaction(String location, long readVersion, CompactionWork work) {
    Objects.requireNonNull(work, "work");
    LanceLocation at = LanceLocation.of(location);
    if (!LanceLocation.of(work.location()).uri().equals(at.uri())) {
      throw new IllegalArgumentException("compaction work prepared at " + work.location() + " cannot be committed "
          + "at " + at.location());
    }
    return withAllocator("compact-commit", allocator -> compactions.commit(at, readVersion, work, allocator));
  }

  @Override
  public CleanupResult cleanup(String location, Set<Long> keep, long registered) {
    Objects.requireNonNull(keep, "keep");
    LanceLocation at = LanceLocation.of(location);
    try {
      return withAllocator("cleanup", allocator -> cleanup.cleanup(at, keep, registered, allocator));
    } finally {
      shared.forget(at.location()); // a removed version is opened again (and then not found), never read kept
    }
  }

  @Override
  public List<StoredFile> listDataFiles(String location) {
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    return files.list(at);
  }

  @Override
  public List<StoredFile> listAllFiles(String root) {
    LanceLocation at = LanceLocation.of(root);
    checkOpen();
    return files.listAll(at);
  }

  @Override
  public Set<String> referencedDataFiles(String location, Collection<Long> versions) {
    Objects.requireNonNull(versions, "versions");
    LanceLocation at = LanceLocation.of(location);
    return withAllocator("files", allocator -> files.referenced(at, versions, allocator));
  }

  @Override
  public void deleteDataFiles(String location, Collection<String> relativePaths) {
    Objects.requireNonNull(relativePaths, "relativePaths");
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    files.delete(at, List.copyOf(relativePaths));
  }

  @Override
  public TableSnapshot open(String location, long version, BufferAllocator allocator) {
    Objects.requireNonNull(allocator, "allocator");
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    String action = "opening version " + version;
    // a pinned version stays open for the next snapshot of it (SharedDatasets); scans read it in this allocator
    SharedDatasets.Lease dataset = datasets.openShared(shared, at, version, sharedAllocator, action);
    try {
      return new LanceTableSnapshot(at, version, LanceTableSnapshot.DatasetHandle.of(dataset),
          () -> datasets.open(at, Optional.of(version), allocator, action), allocator, handles);
    } catch (RuntimeException e) {
      try {
        dataset.close();
      } catch (Exception closing) {
        e.addSuppressed(closing);
      }
      throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
    }
  }

  @Override
  public boolean exists(String location) {
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    String action = "checking for a dataset";
    try (BufferAllocator allocator = child("exists");
        Tracked<Dataset> latest = datasets.open(at, Optional.empty(), allocator, action)) {
      return true;
    } catch (DatasetNotFoundException e) {
      return false;
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
    }
  }

  @Override
  public void drop(String location) {
    LanceLocation at = LanceLocation.of(location);
    checkOpen();
    boolean hasStore = files.checkLanceShaped(at);
    boolean dataset = exists(location);
    if (dataset) {
      try {
        Dataset.drop(at.uri(), storageOptions.current());
      } catch (RuntimeException e) {
        throw LanceErrors.translate("dropping the dataset", at, e, LanceErrors.Input.NONE);
      }
    }
    shared.forget(at.location());
    if (hasStore) {
      files.deleteLocation(at);
    }
    LOG.info("dropped location={} hadDataset={} directoryRemoved={}", at, dataset, hasStore);
  }

  /** How many pinned versions are kept open across snapshots now (at most {@link SharedDatasets#MAX_DATASETS}). */
  public int keptDatasets() {
    return shared.size();
  }

  /** How many times a dataset was opened at an exact version since the engine started. */
  public long versionOpens() {
    return datasets.versionOpens();
  }

  @Override
  public long openHandles() {
    return handles.count();
  }

  /** Marks the engine closed; the root allocator stays the caller's. Snapshots still open keep working. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      shared.close();
      if (handles.count() > 0) { // their datasets may still use the shared session: it stays for them
        LOG.warn("engine closed with open Lance handles openHandles={}", handles.count());
      } else {
        datasets.close();
        sharedAllocator.close();
      }
    }
  }

  /** Runs {@code work} in a child allocator of its own, closed afterwards. */
  private <T> T withAllocator(String purpose, Function<BufferAllocator, T> work) {
    checkOpen();
    try (BufferAllocator allocator = child(purpose)) {
      return work.apply(allocator);
    }
  }

  private BufferAllocator child(String purpose) {
    return rootAllocator.newChildAllocator("lance-" + purpose, 0, rootAllocator.getLimit());
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("the table engine is closed; create a new one");
    }
  }

  private static void checkStagedAt(LanceLocation at, StagedData data) {
    if (!LanceLocation.of(data.location()).uri().equals(at.uri())) {
      throw new IllegalArgumentException("staged data was written under " + data.location() + " and cannot be "
          + "committed at " + at.location() + "; stage it at the table's location");
    }
  }
}
