package dev.lake.engine;

import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Session;

/**
 * Opens Lance datasets (latest or an exact version) with the engine's storage options as they are at that moment,
 * counted as open handles. Opens of an exact version share one Lance {@link Session}: its index cache and metadata
 * cache hold what Lance read of immutable files (index pages by index UUID, manifests by version), so a query that
 * opens a pinned version again does not reload its scalar indexes (a BTREE of 1.5 M keys was re-read by every point
 * query otherwise). Locations are never reused (docs/design.md invariant 4), so nothing cached can be stale.
 */
final class LanceDatasets {
  /** Bytes of index pages the shared session keeps (native memory, outside the Java allocators). */
  static final long INDEX_CACHE_BYTES = 256L << 20;
  /** Bytes of manifests and file metadata the shared session keeps (native memory). */
  static final long METADATA_CACHE_BYTES = 64L << 20;

  private final StorageOptions storageOptions;
  private final OpenHandles handles;
  private final Session session;
  private final java.util.concurrent.atomic.AtomicLong versionOpens = new java.util.concurrent.atomic.AtomicLong();

  LanceDatasets(StorageOptions storageOptions, OpenHandles handles) {
    this.storageOptions = storageOptions;
    this.handles = handles;
    this.session = Session.builder().indexCacheSizeBytes(INDEX_CACHE_BYTES)
        .metadataCacheSizeBytes(METADATA_CACHE_BYTES).build();
  }

  /** How many times a dataset was opened at an exact version (each a native open and a manifest read). */
  long versionOpens() {
    return versionOpens.get();
  }

  /** Releases the shared session (call once no dataset opened through it is open any more). */
  void close() {
    session.close();
  }

  /**
   * A lease on the dataset at exactly {@code version}, kept open across snapshots ({@link SharedDatasets}) and
   * opened with {@code allocator} (the engine's: scans of it are given the reading snapshot's own).
   *
   * @throws DatasetNotFoundException when there is no dataset or no such version
   */
  SharedDatasets.Lease openShared(SharedDatasets shared, LanceLocation at, long version, BufferAllocator allocator,
      String action) {
    Map<String, String> current = storageOptions.current();
    return shared.acquire(at.location(), at.uri(), version, current, () -> {
      Tracked<Dataset> opened = open(at, Optional.of(version), allocator, action);
      return opened.untracked();
    });
  }

  /**
   * Opens the dataset at {@code at}, at exactly {@code version} when given, else at the latest version.
   *
   * @param action what the caller is doing, for messages
   * @throws DatasetNotFoundException when there is no dataset or no such version
   */
  Tracked<Dataset> open(LanceLocation at, Optional<Long> version, BufferAllocator allocator, String action) {
    ReadOptions.Builder options = new ReadOptions.Builder().setStorageOptions(storageOptions.current());
    version.ifPresent(v -> {
      if (v < 1) {
        throw new DatasetNotFoundException(action + " at " + at.location() + " failed: version " + v
            + " does not exist (Lance versions start at 1)", null);
      }
      options.setVersion(v);
    });
    Dataset dataset;
    version.ifPresent(v -> versionOpens.incrementAndGet());
    try {
      var open = Dataset.open().allocator(allocator).uri(at.uri()).readOptions(options.build());
      dataset = (version.isPresent() ? open.session(session) : open).build();
    } catch (RuntimeException e) {
      throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
    }
    Tracked<Dataset> tracked = Tracked.of(dataset, handles);
    if (version.isPresent() && dataset.version() != version.get()) {
      try {
        tracked.close();
      } catch (Exception e) {
        // already failing; the mismatch below is the news
      }
      throw new EngineException(action + " at " + at.location() + " failed: Lance opened version "
          + dataset.version() + " instead of " + version.get() + "; this is a bug", null);
    }
    return tracked;
  }
}
