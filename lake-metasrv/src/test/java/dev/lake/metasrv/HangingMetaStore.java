package dev.lake.metasrv;

import dev.lake.registry.ForwardingMetaStore;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistryUnavailableException;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real MetaStore whose lease calls can be made to hang (a registry that stops answering): while armed, every
 * {@link #lease()} and {@link #writeLease} blocks until {@link #release()} (bounded, so a broken test never hangs).
 */
final class HangingMetaStore extends ForwardingMetaStore {
  private final AtomicReference<CountDownLatch> gate = new AtomicReference<>();
  final AtomicInteger hungCalls = new AtomicInteger();

  HangingMetaStore(MetaStore delegate) {
    super(delegate);
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
}
