package dev.lake.query;

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
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real MetaStore wrapped to observe and to inject faults: counts every call by method, can make every call fail
 * like an unreachable backend, and can hold point reads on a latch.
 */
final class CountingMetaStore implements MetaStore {
  private final MetaStore delegate;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicReference<CountDownLatch> getGate = new AtomicReference<>();

  CountingMetaStore(MetaStore delegate) {
    this.delegate = delegate;
  }

  /** Calls so far, by method name. */
  Map<String, Integer> calls() {
    Map<String, Integer> snapshot = new TreeMap<>();
    calls.forEach((method, count) -> snapshot.put(method, count.get()));
    return snapshot;
  }

  int calls(String method) {
    AtomicInteger count = calls.get(method);
    return count == null ? 0 : count.get();
  }

  int totalCalls() {
    return calls.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  void setDown(boolean unreachable) {
    down.set(unreachable);
  }

  /** Point reads wait for {@code gate} (at most 30 s) before they run. */
  void holdPointReads(CountDownLatch gate) {
    getGate.set(gate);
  }

  private void call(String method) {
    calls.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
    if (down.get()) {
      throw new RegistryUnavailableException("injected: " + describe() + " does not answer (" + method + ")",
          null);
    }
  }

  @Override
  public Optional<TableRegistration> get(String name) {
    call("get");
    CountDownLatch gate = getGate.get();
    if (gate != null) {
      try {
        if (!gate.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never released the point read");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return delegate.get(name);
  }

  @Override
  public Page<TableRegistration> list(Optional<String> startAfter, int limit) {
    call("list");
    return delegate.list(startAfter, limit);
  }

  @Override
  public List<VersionRecord> history(String name, String generation) {
    call("history");
    return delegate.history(name, generation);
  }

  @Override
  public Optional<IdempotencyRecord> idempotencyRecord(String name, String generation, String key) {
    call("idempotencyRecord");
    return delegate.idempotencyRecord(name, generation, key);
  }

  @Override
  public List<Tombstone> tombstones() {
    call("tombstones");
    return delegate.tombstones();
  }

  @Override
  public void create(LeaseFence fence, TableRegistration registration, Optional<IdempotencyRecord> key) {
    call("create");
    delegate.create(fence, registration, key);
  }

  @Override
  public void commit(LeaseFence fence, TableRegistration expected, TableRegistration next,
      Optional<IdempotencyRecord> key) {
    call("commit");
    delegate.commit(fence, expected, next, key);
  }

  @Override
  public void drop(LeaseFence fence, TableRegistration expected, Tombstone tombstone) {
    call("drop");
    delegate.drop(fence, expected, tombstone);
  }

  @Override
  public void deleteTombstone(LeaseFence fence, Tombstone tombstone) {
    call("deleteTombstone");
    delegate.deleteTombstone(fence, tombstone);
  }

  @Override
  public Page<IdempotencyRecord> idempotencyRecords(String name, String generation, Optional<String> startAfter,
      int limit) {
    call("idempotencyRecords");
    return delegate.idempotencyRecords(name, generation, startAfter, limit);
  }

  @Override
  public void deleteHistory(LeaseFence fence, String name, String generation, Collection<Long> versions) {
    call("deleteHistory");
    delegate.deleteHistory(fence, name, generation, versions);
  }

  @Override
  public void deleteIdempotencyRecords(LeaseFence fence, String name, String generation, Collection<String> keys) {
    call("deleteIdempotencyRecords");
    delegate.deleteIdempotencyRecords(fence, name, generation, keys);
  }

  @Override
  public Optional<LeaderLease> lease() {
    call("lease");
    return delegate.lease();
  }

  @Override
  public void writeLease(Optional<LeaderLease> expected, LeaderLease next) {
    call("writeLease");
    delegate.writeLease(expected, next);
  }

  @Override
  public void heartbeat(NodeInfo node) {
    call("heartbeat");
    delegate.heartbeat(node);
  }

  @Override
  public List<NodeInfo> nodes() {
    call("nodes");
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
