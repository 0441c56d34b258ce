package dev.lake.it.support;

import dev.lake.metasrv.WriteInterceptor;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The test-only pause point of the commit protocol ({@link WriteInterceptor#beforeRegistryWrite}): a write to an
 * armed table that passed the write gate (its fence captured) stops here, before its registry write, until
 * {@link #release()} (bounded, so a broken test never hangs).
 */
public final class RegistryWritePause implements WriteInterceptor {
  private final Set<String> armed = ConcurrentHashMap.newKeySet();
  private volatile CountDownLatch arrived = new CountDownLatch(0);
  private volatile CountDownLatch release = new CountDownLatch(0);

  /** Holds the next write to each of {@code tables}; {@link #awaitHeld} waits for {@code tables.size()} of them. */
  public void arm(Set<String> tables) {
    release = new CountDownLatch(1);
    arrived = new CountDownLatch(tables.size());
    armed.addAll(tables);
  }

  public boolean awaitHeld(long seconds) throws InterruptedException {
    return arrived.await(seconds, TimeUnit.SECONDS);
  }

  public void release() {
    armed.clear();
    release.countDown();
  }

  @Override
  public void beforeRegistryWrite(String table, long newVersion) {
    if (!armed.remove(table)) {
      return;
    }
    CountDownLatch mine = release;
    arrived.countDown();
    try {
      if (!mine.await(120, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never released the paused write to " + table);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted at the pause point", e);
    }
  }
}
