package dev.lake.engine;

import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.lance.Dataset;
import org.lance.ReadOptions;

/**
 * Opens Lance datasets (latest or an exact version) with the engine's storage options as they are at that moment,
 * counted as open handles.
 */
final class LanceDatasets {
  private final StorageOptions storageOptions;
  private final OpenHandles handles;

  LanceDatasets(StorageOptions storageOptions, OpenHandles handles) {
    this.storageOptions = storageOptions;
    this.handles = handles;
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
    try {
      dataset = Dataset.open().allocator(allocator).uri(at.uri()).readOptions(options.build()).build();
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
