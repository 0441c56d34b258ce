package dev.lake.metasrv;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real MetaStore whose lease calls can be made to hang (a registry that stops answering): while armed, every
 * {@link #lease()} and {@link #writeLease} blocks until {@link #release()} (bounded, so a broken test never hangs).
 */
final class HangingMetaStore implements MetaStore {
  private final MetaStore delegate;
  private final AtomicReference<CountDownLatch> gate = new AtomicReference<>();
  final AtomicInteger hungCalls = new AtomicInteger();

  HangingMetaStore(MetaStore delegate) {
    this.delegate = delegate;
  }

  void hangLeaseCalls() {
    gate.set(new CountDownLatch(1));
  }

  void release() {
    CountDownLatch latch = gate.getAndSet(null);
    if (latch != null) {
      latch.countDown();
    }
  }

  private void maybeHang() {
    CountDownLatch latch = gate.get();
    if (latch == null) {
      return;
    }
    hungCalls.incrementAndGet();
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never released the hanging registry");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryUnavailableException("interrupted while the registry hung", e);
    }
  }

  @Override
  public Optional<LeaderLease> lease() {
    maybeHang();
    return delegate.lease();
  }

  @Override
  public void writeLease(Optional<LeaderLease> expected, LeaderLease next) {
    maybeHang();
    delegate.writeLease(expected, next);
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
  public void heartbeat(NodeInfo node) {
    delegate.heartbeat(node);
  }

  @Override
  public List<NodeInfo> nodes() {
    return delegate.nodes();
  }

  @Override
  public String describe() {
    return "hanging(" + delegate.describe() + ")";
  }

  @Override
  public void close() {
    delegate.close();
  }
}
