package dev.lake.engine;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Lance object together with its share of the engine's open-handle count. Closing closes the object, then gives
 * the handle back, once; a failing close still gives the handle back.
 */
final class Tracked<T extends AutoCloseable> implements AutoCloseable {
  private final T resource;
  private final OpenHandles.Handle handle;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Tracked(T resource, OpenHandles.Handle handle) {
    this.resource = resource;
    this.handle = handle;
  }

  /** Counts {@code resource} as open in {@code handles} until this is closed. */
  static <T extends AutoCloseable> Tracked<T> of(T resource, OpenHandles handles) {
    return new Tracked<>(resource, handles.opened());
  }

  T get() {
    return resource;
  }

  /** Gives the handle back and hands the open resource to a caller that keeps it (and closes it) itself. */
  T untracked() {
    if (closed.compareAndSet(false, true)) {
      handle.close();
    }
    return resource;
  }

  @Override
  public void close() throws Exception {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      resource.close();
    } finally {
      handle.close();
    }
  }
}
