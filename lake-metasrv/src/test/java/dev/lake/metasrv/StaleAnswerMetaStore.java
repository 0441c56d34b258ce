package dev.lake.metasrv;

import dev.lake.registry.ForwardingMetaStore;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real MetaStore whose answer to a registration read can be held back: the read is made, then the calling thread
 * waits until {@link #release()} and gets the answer read before the wait — what a node sees when it is paused
 * (SIGSTOP, a long GC) right after a registry read returned. Per thread (by name): which of its {@code get} calls
 * waits. Waits are bounded, so a broken test never hangs.
 */
final class StaleAnswerMetaStore extends ForwardingMetaStore {
  private final Map<String, Integer> waitAtCall = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final CountDownLatch released = new CountDownLatch(1);
  final AtomicInteger waiting = new AtomicInteger();

  StaleAnswerMetaStore(MetaStore delegate) {
    super(delegate);
  }

  /** The {@code n}-th (1-based) {@code get} made by the thread named {@code thread} waits for {@link #release}. */
  void holdAnswer(String thread, int n) {
    waitAtCall.put(thread, n);
  }

  void release() {
    released.countDown();
  }

  @Override
  public Optional<TableRegistration> get(String name) {
    Optional<TableRegistration> answer = delegate.get(name);
    String thread = Thread.currentThread().getName();
    Integer target = waitAtCall.get(thread);
    if (target != null && calls.computeIfAbsent(thread, t -> new AtomicInteger()).incrementAndGet() == target) {
      waiting.incrementAndGet();
      try {
        if (!released.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never released the held registry answer");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return answer;
  }
}
