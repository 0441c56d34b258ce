package dev.lake.it.support;

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

/** Delegates to a real engine; subclasses override one method to steer time or inject a fault. */
public class ForwardingTableEngine implements TableEngine {
  protected final TableEngine delegate;

  public ForwardingTableEngine(TableEngine delegate) {
    this.delegate = delegate;
  }

  @Override
  public StagedData stage(String location, ArrowReader data) {
    return delegate.stage(location, data);
  }

  @Override
  public long create(String location, StagedData data) {
    return delegate.create(location, data);
  }

  @Override
  public long commit(String location, long readVersion, TableChange change) {
    return delegate.commit(location, readVersion, change);
  }

  @Override
  public long latestVersion(String location) {
    return delegate.latestVersion(location);
  }

  @Override
  public List<Long> dataChangingVersionsAfter(String location, long afterVersion) {
    return delegate.dataChangingVersionsAfter(location, afterVersion);
  }

  @Override
  public long restore(String location, long version) {
    return delegate.restore(location, version);
  }

  @Override
  public TableSnapshot open(String location, long version, BufferAllocator allocator) {
    return delegate.open(location, version, allocator);
  }

  @Override
  public Optional<CompactionWork> prepareCompaction(String location, long readVersion, CompactionOptions options) {
    return delegate.prepareCompaction(location, readVersion, options);
  }

  @Override
  public long commitCompaction(String location, long readVersion, CompactionWork work) {
    return delegate.commitCompaction(location, readVersion, work);
  }

  @Override
  public long createIndex(String location, long readVersion, dev.lake.engine.IndexSpec spec) {
    return delegate.createIndex(location, readVersion, spec);
  }

  @Override
  public List<dev.lake.engine.TableIndex> indexes(String location, long version) {
    return delegate.indexes(location, version);
  }

  @Override
  public CleanupResult cleanup(String location, Set<Long> keep, long registered) {
    return delegate.cleanup(location, keep, registered);
  }

  @Override
  public List<StoredFile> listDataFiles(String location) {
    return delegate.listDataFiles(location);
  }

  @Override
  public List<StoredFile> listAllFiles(String root) {
    return delegate.listAllFiles(root);
  }

  @Override
  public Set<String> referencedDataFiles(String location, Collection<Long> versions) {
    return delegate.referencedDataFiles(location, versions);
  }

  @Override
  public void deleteDataFiles(String location, Collection<String> relativePaths) {
    delegate.deleteDataFiles(location, relativePaths);
  }

  @Override
  public boolean exists(String location) {
    return delegate.exists(location);
  }

  @Override
  public void drop(String location) {
    delegate.drop(location);
  }

  @Override
  public long openHandles() {
    return delegate.openHandles();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
