package dev.lake.it.support;

import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.ForwardingMetaStore;
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
public final class LeaseFaultMetaStore extends ForwardingMetaStore {
  private volatile boolean partitioned;
  private final AtomicReference<Consumer<TableRegistration>> afterCommit = new AtomicReference<>(r -> { });

  public LeaseFaultMetaStore(MetaStore delegate) {
    super(delegate);
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

}
