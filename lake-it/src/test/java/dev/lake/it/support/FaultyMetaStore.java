package dev.lake.it.support;

import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.ForwardingMetaStore;
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
public final class FaultyMetaStore extends ForwardingMetaStore {
  private final AtomicInteger failCommits = new AtomicInteger();
  private final AtomicReference<Supplier<RuntimeException>> failure = new AtomicReference<>();

  public FaultyMetaStore(MetaStore delegate) {
    super(delegate);
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
  public String describe() {
    return "faulty(" + delegate.describe() + ")";
  }

}
