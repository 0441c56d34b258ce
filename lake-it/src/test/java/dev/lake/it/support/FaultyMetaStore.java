package dev.lake.it.support;

import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.NodeInfo;
import dev.lake.registry.Page;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.VersionRecord;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/** A real MetaStore with injectable faults on version commits (a fake only to inject a fault). */
public final class FaultyMetaStore implements MetaStore {
  private final MetaStore delegate;
  private final AtomicInteger failCommits = new AtomicInteger();
  private final AtomicReference<Supplier<RuntimeException>> failure = new AtomicReference<>();

  public FaultyMetaStore(MetaStore delegate) {
    this.delegate = delegate;
  }

  /** The next {@code n} commits throw what {@code error} makes, having written nothing. */
  public void failNextCommits(int n, Supplier<RuntimeException> error) {
    failure.set(error);
    failCommits.set(n);
  }

  @Override
  public void commit(LeaseFence fence, TableRegistration expected, TableRegistration next,
      Optional<IdempotencyRecord> key) {
    if (failCommits.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw failure.get().get();
    }
    delegate.commit(fence, expected, next, key);
  }

  @Override
  public Optional<TableRegistration> get(String name) {
    return delegate.get(name);
  }

  @Override
  public Page<TableRegistration> list(Optional<String> startAfter, int limit) {
    return delegate.list(startAfter, limit);
  }

  @Override
  public List<VersionRecord> history(String name, String generation) {
    return delegate.history(name, generation);
  }

  @Override
  public Optional<IdempotencyRecord> idempotencyRecord(String name, String generation, String key) {
    return delegate.idempotencyRecord(name, generation, key);
  }

  @Override
  public List<Tombstone> tombstones() {
    return delegate.tombstones();
  }

  @Override
  public void create(LeaseFence fence, TableRegistration registration, Optional<IdempotencyRecord> key) {
    delegate.create(fence, registration, key);
  }

  @Override
  public void drop(LeaseFence fence, TableRegistration expected, Tombstone tombstone) {
    delegate.drop(fence, expected, tombstone);
  }

  @Override
  public void deleteTombstone(LeaseFence fence, Tombstone tombstone) {
    delegate.deleteTombstone(fence, tombstone);
  }

  @Override
  public Page<IdempotencyRecord> idempotencyRecords(String name, String generation, Optional<String> startAfter,
      int limit) {
    return delegate.idempotencyRecords(name, generation, startAfter, limit);
  }

  @Override
  public void deleteHistory(LeaseFence fence, String name, String generation, Collection<Long> versions) {
    delegate.deleteHistory(fence, name, generation, versions);
  }

  @Override
  public void deleteIdempotencyRecords(LeaseFence fence, String name, String generation, Collection<String> keys) {
    delegate.deleteIdempotencyRecords(fence, name, generation, keys);
  }

  @Override
  public Optional<LeaderLease> lease() {
    return delegate.lease();
  }

  @Override
  public void writeLease(Optional<LeaderLease> expected, LeaderLease next) {
    delegate.writeLease(expected, next);
  }

  @Override
  public void heartbeat(NodeInfo node) {
    delegate.heartbeat(node);
  }

  @Override
  public List<NodeInfo> nodes() {
    return delegate.nodes();
  }

  @Override
  public String describe() {
    return "faulty(" + delegate.describe() + ")";
  }

  @Override
  public void close() {
    delegate.close();
  }
}
