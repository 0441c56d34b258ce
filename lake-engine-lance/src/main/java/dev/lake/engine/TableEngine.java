package dev.lake.engine;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Lance tables at locations ({@code <data-root>/<name>/<generation>/}). Every method that creates a version
 * returns it. Thread-safe; concurrency control is the caller's (metasrv's per-table locks and registry CAS).
 *
 * <p>Errors: {@link EngineException} subclasses; never Lance's own types.
 */
public interface TableEngine extends AutoCloseable {

  /**
   * Writes {@code data} into uncommitted data files under {@code location}, pulling one batch at a time; nothing
   * becomes visible. The reader is consumed and closed. On failure nothing is committed (partial files are
   * orphans for the sweep). Use this outside any table lock.
   */
  StagedData stage(String location, ArrowReader data);

  /**
   * Creates the dataset at a fresh {@code location} as version 1 holding {@code data}. Throws
   * {@link LocationExistsException} when a dataset is already there.
   */
  long create(String location, StagedData data);

  /**
   * Commits {@code change} on read version {@code readVersion} and returns the new version N. Then checks that
   * every version in (readVersion, N) is data-neutral; if not, throws {@link ForeignCommitException} (the caller
   * must not register N). A transaction is built fresh for every call (never re-committed).
   */
  long commit(String location, long readVersion, TableChange change);

  /** Lance's latest version at {@code location} (I/O, not cached). */
  long latestVersion(String location);

  /** The versions after {@code afterVersion} (exclusive) up to the latest that change data. */
  List<Long> dataChangingVersionsAfter(String location, long afterVersion);

  /** Commits a Restore of {@code version} and returns the new version (its content equals {@code version}'s). */
  long restore(String location, long version);

  /**
   * Opens exactly {@code version} (never latest). The snapshot uses {@code allocator} for its buffers; close it
   * after its readers.
   */
  TableSnapshot open(String location, long version, BufferAllocator allocator);

  /** True when a dataset exists at {@code location}. */
  boolean exists(String location);

  /** Deletes the dataset at {@code location}; open handles then fail. */
  void drop(String location);

  @Override
  void close();
}
