package dev.lake.it.support;

import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.NodeInfo;
import dev.lake.registry.Page;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.VersionRecord;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A real MetaStore (a fake only to inject a fault) that can cut one node off from the lease item while its other
 * registry calls still work, as a network partition or a stalled campaign would: while {@link #partition()}ed,
 * lease reads and writes fail, so the node's campaigns fail and it demotes. {@link #afterCommit} runs a hook after a
 * version commit or create <i>succeeded</i> (e.g. to hold the acknowledgement back).
 */
public final class LeaseFaultMetaStore implements MetaStore {
  private final MetaStore delegate;
  private volatile boolean partitioned;
  private final AtomicReference<Consumer<TableRegistration>> afterCommit = new AtomicReference<>(r -> { });

  public LeaseFaultMetaStore(MetaStore delegate) {
    this.delegate = delegate;
  }

  public void partition() {
    partitioned = true;
  }

  public void heal() {
    partitioned = false;
  }

  /** Runs {@code hook} with the new registration after each successful commit or create (until replaced). */
  public void afterCommit(Consumer<TableRegistration> hook) {
    afterCommit.set(hook);
  }

  private void checkLeaseReachable() {
    if (partitioned) {
      throw new RegistryUnavailableException("injected: this node cannot reach the lease item", null);
    }
  }

  @Override
  public Optional<LeaderLease> lease() {
    checkLeaseReachable();
    return delegate.lease();
  }

  @Override
  public void writeLease(Optional<LeaderLease> expected, LeaderLease next) {
    checkLeaseReachable();
    delegate.writeLease(expected, next);
  }

  @Override
  public void commit(LeaseFence fence, TableRegistration expected, TableRegistration next,
      Optional<IdempotencyRecord> key) {
    delegate.commit(fence, expected, next, key);
    afterCommit.get().accept(next);
  }

  @Override
  public void create(LeaseFence fence, TableRegistration registration, Optional<IdempotencyRecord> key) {
    delegate.create(fence, registration, key);
    afterCommit.get().accept(registration);
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
  public void heartbeat(NodeInfo node) {
    delegate.heartbeat(node);
  }

  @Override
  public List<NodeInfo> nodes() {
    return delegate.nodes();
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
