package dev.lake.engine;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the Lance handles (datasets, scanners, readers) an engine holds open right now. Each opened handle gets a
 * {@link Handle} whose {@link Handle#close()} gives it back exactly once, however often it is called.
 */
final class OpenHandles {
  private final AtomicLong open = new AtomicLong();

  /** Registers one newly opened handle. */
  Handle opened() {
    open.incrementAndGet();
    return new Handle(open);
  }

  long count() {
    return open.get();
  }

  /** One open handle's share of the count; closing it twice counts once. */
  static final class Handle implements AutoCloseable {
    private final AtomicLong open;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Handle(AtomicLong open) {
      this.open = open;
    }

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        open.decrementAndGet();
      }
    }
  }
}
