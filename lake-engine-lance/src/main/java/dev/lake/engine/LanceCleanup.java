package dev.lake.engine;

import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.lance.Dataset;
import org.lance.cleanup.CleanupPolicy;
import org.lance.cleanup.RemovalStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Version cleanup with a version bound (docs/design.md invariant 9). Lance can only remove "every version before B", so
 * B is the oldest version to keep. Lance runs on a handle pinned at the registered version: it treats that version
 * and every newer one as its working set, so neither the registered version nor anything committed after it (an
 * in-flight commit, an unregistered orphan) is touched whatever B is. Never with {@code withDeleteUnverified}: that
 * would delete the files an in-flight ingest is still writing.
 */
final class LanceCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(LanceCleanup.class);

  private final LanceDatasets datasets;

  LanceCleanup(LanceDatasets datasets) {
    this.datasets = datasets;
  }

  /** See {@link TableEngine#cleanup}. */
  CleanupResult cleanup(LanceLocation at, Set<Long> keep, long registered, BufferAllocator allocator) {
    long bound = bound(keep, registered);
    String action = "cleaning up versions before " + bound;
    try (Tracked<Dataset> pinned = datasets.open(at, Optional.of(registered), allocator, action)) {
      RemovalStats stats = pinned.get().cleanupWithPolicy(CleanupPolicy.builder().withBeforeVersion(bound).build());
      CleanupResult result = new CleanupResult(bound, stats.getOldVersions(), stats.getDataFilesRemoved(),
          stats.getDeletionFilesRemoved(), stats.getTransactionFilesRemoved(), stats.getIndexFilesRemoved(),
          stats.getBytesRemoved());
      LOG.info("cleaned up location={} registered={} beforeVersion={} versionsRemoved={} dataFilesRemoved={} "
          + "bytesRemoved={}", at, registered, bound, result.versionsRemoved(), result.dataFilesRemoved(),
          result.bytesRemoved());
      return result;
    } catch (EngineException e) {
      throw e;
    } catch (Exception e) {
      throw LanceErrors.translate(action, at, e, LanceErrors.Input.NONE);
    }
  }

  /** The oldest version to keep: min(keep ∪ {registered}). */
  static long bound(Set<Long> keep, long registered) {
    if (registered < 1) {
      throw new IllegalArgumentException("the registered version must be at least 1, was " + registered);
    }
    long bound = registered;
    for (Long version : keep) {
      if (version == null || version < 1) {
        throw new IllegalArgumentException("versions to keep must be at least 1, got " + version);
      }
      bound = Math.min(bound, version);
    }
    return bound;
  }
}
