package dev.lake.flight.security;

import dev.lake.engine.CleanupResult;
import dev.lake.engine.CompactionOptions;
import dev.lake.engine.CompactionWork;
import dev.lake.engine.StagedData;
import dev.lake.engine.StoredFile;
import dev.lake.engine.TableChange;
import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * The engine as the rest of the node sees it: every operation's location passes the {@link DataRootAllowlist}
 * first, so no registry entry, ticket or request can make lake read, write or delete outside its data root.
 */
public final class DataRootGuard implements TableEngine {
  private final TableEngine delegate;
  private final DataRootAllowlist allowlist;

  public DataRootGuard(TableEngine delegate, DataRootAllowlist allowlist) {
    this.delegate = delegate;
    this.allowlist = allowlist;
  }

  @Override
  public StagedData stage(String location, ArrowReader data) {
    try {
      allowlist.check(location);
    } catch (LocationNotAllowedException e) {
      closeQuietly(data);
      throw e;
    }
    return delegate.stage(location, data);
  }

  @Override
  public long create(String location, StagedData data) {
    return delegate.create(allowlist.check(location), data);
  }

  @Override
  public long commit(String location, long readVersion, TableChange change) {
    return delegate.commit(allowlist.check(location), readVersion, change);
  }

  @Override
  public long latestVersion(String location) {
    return delegate.latestVersion(allowlist.check(location));
  }

  @Override
  public List<Long> dataChangingVersionsAfter(String location, long afterVersion) {
    return delegate.dataChangingVersionsAfter(allowlist.check(location), afterVersion);
  }

  @Override
  public long restore(String location, long version) {
    return delegate.restore(allowlist.check(location), version);
  }

  @Override
  public TableSnapshot open(String location, long version, BufferAllocator allocator) {
    return delegate.open(allowlist.check(location), version, allocator);
  }

  @Override
  public Optional<CompactionWork> prepareCompaction(String location, long readVersion, CompactionOptions options) {
    return delegate.prepareCompaction(allowlist.check(location), readVersion, options);
  }

  @Override
  public long commitCompaction(String location, long readVersion, CompactionWork work) {
    return delegate.commitCompaction(allowlist.check(location), readVersion, work);
  }

  @Override
  public long createIndex(String location, long readVersion, dev.lake.engine.IndexSpec spec) {
    return delegate.createIndex(allowlist.check(location), readVersion, spec);
  }

  @Override
  public List<dev.lake.engine.TableIndex> indexes(String location, long version) {
    return delegate.indexes(allowlist.check(location), version);
  }

  @Override
  public CleanupResult cleanup(String location, Set<Long> keep, long registered) {
    return delegate.cleanup(allowlist.check(location), keep, registered);
  }

  @Override
  public List<StoredFile> listDataFiles(String location) {
    return delegate.listDataFiles(allowlist.check(location));
  }

  @Override
  public List<StoredFile> listAllFiles(String root) {
    return delegate.listAllFiles(allowlist.check(root));
  }

  @Override
  public Set<String> referencedDataFiles(String location, Collection<Long> versions) {
    return delegate.referencedDataFiles(allowlist.check(location), versions);
  }

  @Override
  public void deleteDataFiles(String location, Collection<String> relativePaths) {
    delegate.deleteDataFiles(allowlist.check(location), relativePaths);
  }

  @Override
  public boolean exists(String location) {
    return delegate.exists(allowlist.check(location));
  }

  @Override
  public void drop(String location) {
    delegate.drop(allowlist.check(location));
  }

  @Override
  public long openHandles() {
    return delegate.openHandles();
  }

  @Override
  public void close() {
    delegate.close();
  }

  private static void closeQuietly(ArrowReader data) {
    try {
      data.close();
    } catch (Exception ignored) {
      // the caller's reader; the refusal is what matters
    }
  }
}
