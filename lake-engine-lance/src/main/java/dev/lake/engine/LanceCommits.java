package dev.lake.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.CommitBuilder;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.Transaction;
import org.lance.operation.Append;
import org.lance.operation.Operation;
import org.lance.operation.Overwrite;
import org.lance.operation.Restore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's Lance commits: create (an Overwrite at a fresh location), Append/Overwrite on a read version with
 * the check of the versions in between, and Restore. Every call builds a new operation and transaction: Lance
 * aborts the JVM when one transaction object is committed twice.
 */
final class LanceCommits {
  private static final Logger LOG = LoggerFactory.getLogger(LanceCommits.class);

  private final StorageOptions storageOptions;
  private final OpenHandles handles;
  private final LanceDatasets datasets;
  private final NeutralityCheck neutrality;

  LanceCommits(StorageOptions storageOptions, OpenHandles handles, LanceDatasets datasets,
      NeutralityCheck neutrality) {
    this.storageOptions = storageOptions;
    this.handles = handles;
    this.datasets = datasets;
    this.neutrality = neutrality;
  }

  /** Commits {@code data} as version 1 at {@code at}; the caller made sure no dataset is there. */
  long create(LanceLocation at, StagedData data, BufferAllocator allocator) throws Exception {
    try (Transaction transaction = new Transaction.Builder().readVersion(0).operation(overwrite(data)).build();
        Tracked<Dataset> created = Tracked.of(new CommitBuilder(at.uri(), allocator)
            .writeParams(storageOptions.current()).execute(transaction), handles)) {
      long version = created.get().version();
      if (version != 1) {
        LOG.warn("create raced with another create location={} committedVersion={}", at, version);
        throw new LocationExistsException(at.location());
      }
      LOG.info("created dataset location={} version={} rows={}", at, version, data.rowCount());
      return version;
    }
  }

  /** See {@link TableEngine#commit}. */
  long commit(LanceLocation at, long readVersion, TableChange change, BufferAllocator allocator) throws Exception {
    boolean isAppend = change instanceof TableChange.Append;
    StagedData data = isAppend ? ((TableChange.Append) change).data() : ((TableChange.Overwrite) change).data();
    String kind = isAppend ? "Append" : "Overwrite";
    String action = "committing " + kind + " on read version " + readVersion;
    try (Tracked<Dataset> base = datasets.open(at, Optional.of(readVersion), allocator, action)) {
      if (isAppend) {
        checkAppendable(base.get().getSchema(), data, at, readVersion);
        if (data.fragments().isEmpty()) {
          LOG.info("append of no rows commits nothing location={} readVersion={}", at, readVersion);
          return readVersion;
        }
      }
      Operation operation = isAppend ? Append.builder().fragments(fragments(data)).build() : overwrite(data);
      long committed;
      try (Transaction transaction = new Transaction.Builder().readVersion(readVersion).operation(operation).build();
          Tracked<Dataset> result = Tracked.of(base.get().commitTransaction(transaction), handles)) {
        committed = result.get().version();
        neutrality.check(at, readVersion, committed, result.get());
      }
      LOG.info("committed location={} operation={} readVersion={} version={} rows={}", at, kind, readVersion,
          committed, data.rowCount());
      return committed;
    }
  }

  /** Commits a Restore of {@code version}, opened pinned, and returns the new version. */
  long restore(LanceLocation at, long version, BufferAllocator allocator) throws Exception {
    try (Tracked<Dataset> target = datasets.open(at, Optional.of(version), allocator, "restoring version " + version);
        Transaction transaction = new Transaction.Builder()
            .readVersion(version)
            .operation(Restore.builder().version(version).build())
            .build();
        Tracked<Dataset> restored = Tracked.of(target.get().commitTransaction(transaction), handles)) {
      long committed = restored.get().version();
      LOG.info("restored location={} restoredVersion={} version={}", at, version, committed);
      return committed;
    }
  }

  private static void checkAppendable(Schema tableSchema, StagedData data, LanceLocation at, long readVersion) {
    Optional<String> mismatch = AppendSchemas.mismatch(tableSchema, data.schema())
        .or(() -> data.columnsWithNulls().flatMap(nulls -> AppendSchemas.nullsInRequiredColumns(tableSchema, nulls)));
    if (mismatch.isPresent()) {
      throw new IncompatibleDataException("cannot append to " + at.location() + " at version " + readVersion + ": "
          + mismatch.get() + ". Stage the data with the table's columns, in the table's order and types", null);
    }
  }

  private static Operation overwrite(StagedData data) {
    return Overwrite.builder().fragments(fragments(data)).schema(data.schema()).build();
  }

  @SuppressWarnings("unchecked")
  private static List<FragmentMetadata> fragments(StagedData data) {
    return new ArrayList<>((List<FragmentMetadata>) data.fragments());
  }
}
