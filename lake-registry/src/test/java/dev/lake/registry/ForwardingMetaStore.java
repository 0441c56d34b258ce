package dev.lake.registry;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Delegates every call to a real MetaStore. Test wrappers extend it and override only the call they observe or
 * fault (a fake only to inject a fault or steer time; the registry underneath is real).
 */
public class ForwardingMetaStore implements MetaStore {
  protected final MetaStore delegate;

  public ForwardingMetaStore(MetaStore delegate) {
    this.delegate = delegate;
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
  public void commit(LeaseFence fence, TableRegistration expected, TableRegistration next,
      Optional<IdempotencyRecord> key) {
    delegate.commit(fence, expected, next, key);
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
  public void putPin(SnapshotPin pin) {
    delegate.putPin(pin);
  }

  @Override
  public Optional<SnapshotPin> pin(String id) {
    return delegate.pin(id);
  }

  @Override
  public List<SnapshotPin> pins() {
    return delegate.pins();
  }

  @Override
  public void deletePin(String id) {
    delegate.deletePin(id);
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
