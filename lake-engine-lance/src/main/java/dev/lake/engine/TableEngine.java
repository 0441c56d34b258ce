package dev.lake.engine;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Lance tables at locations ({@code <data-root>/<name>/<generation>/}). Every method that creates a version
 * returns it. Thread-safe; concurrency control is the caller's (metasrv's per-table locks and registry CAS).
 *
 * <p>Locations are absolute local paths, {@code file://} URIs or object-store URIs ({@code s3://bucket/prefix});
 * a trailing slash does not matter.
 *
 * <p>Errors: {@link EngineException} subclasses; never Lance's own types. {@link DatasetNotFoundException}: no
 * dataset or no such version; {@link InvalidExpressionException}: a bad filter, column list or SQL text;
 * {@link IncompatibleDataException}: data that does not fit the table; {@link CommitConflictException}: Lance
 * refused a commit on a stale read version; {@link StorageException}: the store failed (retry may succeed);
 * {@link DataStreamException}: the caller's input stream failed while staging.
 */
public interface TableEngine extends AutoCloseable {

  /**
   * Writes {@code data} into uncommitted data files under {@code location}, pulling one batch at a time; nothing
   * becomes visible. The reader is consumed and closed. On failure nothing is committed (partial files are
   * orphans for the sweep). Use this outside any table lock. The staged data can be committed by
   * {@link #create}, or by {@link #commit} as an Append (its columns must then equal the table's in names, order
   * and types) or an Overwrite (any schema). No dataset needs to exist at {@code location} yet.
   *
   * @throws DataStreamException when reading {@code data} failed (the producer's exception is the cause)
   * @throws IncompatibleDataException when Lance cannot store the data (e.g. an unsupported type)
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
   * must not register N). A transaction is built fresh for every call (never re-committed), so the same staged
   * data may be committed again after a failed attempt. An Append of no rows commits nothing and returns
   * {@code readVersion} (Lance has no empty append); an Overwrite with no rows empties the table.
   *
   * @throws CommitConflictException when Lance refuses to rebase onto a newer version (e.g. a Restore); nothing
   *     was committed
   * @throws IncompatibleDataException when an Append's columns differ from the read version's
   */
  long commit(String location, long readVersion, TableChange change);

  /**
   * Builds the scalar index {@code spec} from read version {@code readVersion}'s rows and commits it as a new
   * version N (Lance's CreateIndex: N holds readVersion's rows and the index), returned. Then checks, as
   * {@link #commit} does, that every version in (readVersion, N) is data-neutral. Call under the table lock.
   *
   * @throws ForeignCommitException when a data change slipped in between readVersion and N; do not register N
   * @throws CommitConflictException when Lance refused to rebase the index commit; nothing was committed
   * @throws IncompatibleDataException when Lance cannot index the column (its type, or the name is taken)
   */
  long createIndex(String location, long readVersion, IndexSpec spec);

  /**
   * The scalar indexes version {@code version} holds, in name order.
   *
   * @throws DatasetNotFoundException when there is no dataset or no such version
   */
  List<TableIndex> indexes(String location, long version);

  /** Lance's latest version at {@code location} (I/O, not cached). */
  long latestVersion(String location);

  /**
   * The versions after {@code afterVersion} (exclusive) up to the latest that change data, ascending. Only
   * Lance's ReserveFragments versions count as data-neutral; a version whose operation cannot be read counts as
   * a data change.
   */
  List<Long> dataChangingVersionsAfter(String location, long afterVersion);

  /** Commits a Restore of {@code version} and returns the new version (its content equals {@code version}'s). */
  long restore(String location, long version);

  /**
   * Opens exactly {@code version} (never latest). The snapshot uses {@code allocator} for its buffers; close it
   * after its readers.
   *
   * @throws DatasetNotFoundException when there is no dataset or no such version
   */
  TableSnapshot open(String location, long version, BufferAllocator allocator);

  /**
   * Phase one of two-phase compaction, run outside the table lock: plans compaction on {@code readVersion} and
   * rewrites the fragments it picks into new data files. Commits nothing (Lance 7.0.0 commits no version while
   * rewriting). Empty when there is nothing to compact. If the work is never committed, its files are orphans for
   * the sweep ({@link CompactionWork#writtenFiles()}).
   *
   * @throws DatasetNotFoundException when there is no dataset or no such version
   */
  Optional<CompactionWork> prepareCompaction(String location, long readVersion, CompactionOptions options);

  /**
   * Phase two, under the table lock: commits {@code work} as a Lance Rewrite on read version {@code readVersion}
   * (the registered version) and returns the new version N — exactly the one this commit made, never "latest".
   * Then checks, as {@link #commit} does, that every version in (readVersion, N) is data-neutral. A transaction is
   * built fresh for every call.
   *
   * <p>{@code readVersion} may differ from {@link CompactionWork#readVersion()} (the caller decides whether stale
   * work is worth committing; the metasrv skips it): the rewrite is committed only if every fragment it replaces is
   * still present, unchanged, at {@code readVersion}; its rows are then {@code readVersion}'s rows. Lance itself
   * matches replaced fragments by id only, and fragment ids restart after an Overwrite, so this check is what
   * keeps a stale rewrite from bringing back old rows.
   *
   * @throws CommitConflictException when a replaced fragment is gone or changed at {@code readVersion} (e.g. an
   *     Overwrite, or this work was already committed), or Lance refuses to rebase over a version after
   *     {@code readVersion}; nothing was committed
   * @throws ForeignCommitException when a data change slipped in between readVersion and N; do not register N
   */
  long commitCompaction(String location, long readVersion, CompactionWork work);

  /**
   * Removes old versions and the files only they reference, with a version bound, never a time bound
   * (docs/design.md invariant 9). Lance can only remove "every version before B", so B = min(keep ∪ {registered}):
   * every kept version, the registered one and everything newer survive; versions between B and
   * {@code registered} that are not in {@code keep} also survive (the safe direction) until a later cleanup with
   * a higher bound. Unreferenced files are left to lake's orphan sweep, except those older than Lance's fixed
   * 7 days (Lance deletes them; never with {@code withDeleteUnverified}, which would delete files an in-flight
   * ingest is still writing). Snapshots open on surviving versions keep working; removed versions then fail to
   * open with {@link DatasetNotFoundException}.
   *
   * @param keep versions to keep (those current at any moment within the retention window)
   * @param registered the registered version (kept, with every newer one)
   * @throws DatasetNotFoundException when there is no dataset or {@code registered} does not exist
   */
  CleanupResult cleanup(String location, Set<Long> keep, long registered);

  /**
   * Every data and deletion file stored under the location's {@code data/} and {@code _deletions/} directories,
   * committed or not, with paths relative to the location (the form {@link #referencedDataFiles} returns).
   *
   * @throws UnsupportedOperationException when no {@link ObjectStore} serves the location
   */
  List<StoredFile> listDataFiles(String location);

  /**
   * Every file under {@code root} (e.g. the data root), recursively, with paths relative to it: what the sweep of
   * generation directories that nothing names reads. Empty when nothing is there.
   */
  List<StoredFile> listAllFiles(String root);

  /**
   * The data files ({@code data/...}) and deletion files ({@code _deletions/...}) the manifests of
   * {@code versions} reference, relative to the location. Orphans = {@link #listDataFiles} minus these.
   *
   * @throws DatasetNotFoundException when one of the versions does not exist (never guess: a sweep must stop)
   */
  Set<String> referencedDataFiles(String location, Collection<Long> versions);

  /**
   * Deletes the given files (paths as {@link #listDataFiles} returns them; only under {@code data/} and
   * {@code _deletions/}); files already gone are ignored.
   *
   * @throws IllegalArgumentException for any other path, before anything is deleted
   */
  void deleteDataFiles(String location, Collection<String> relativePaths);

  /** True when a dataset exists at {@code location}. */
  boolean exists(String location);

  /**
   * Deletes the dataset at {@code location} and its directory; open handles then fail. Also removes a location
   * holding files but no manifest (a crashed create). Does nothing when nothing is there. Refuses
   * ({@link IllegalArgumentException}, nothing deleted) a location holding anything but Lance's own directories.
   * On S3 ({@link S3ObjectStore}) every object under the location's prefix is deleted, page by page. Without an
   * {@link ObjectStore} for the location only Lance's drop runs.
   */
  void drop(String location);

  /**
   * The Lance handles (datasets, scanners, readers) this engine holds open right now, including those of open
   * snapshots and their readers. Returns to zero once every snapshot and reader is closed.
   */
  long openHandles();

  @Override
  void close();
}
