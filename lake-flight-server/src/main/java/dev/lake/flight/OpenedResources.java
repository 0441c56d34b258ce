package dev.lake.flight;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link LakeServer}'s constructor opened so far, in order: when a later step fails, {@link #closeAll} closes it
 * all in reverse order (the registry's RocksDB lock, threads, sockets and Arrow memory are released), so a failed
 * start leaves nothing behind and the same data directory can be started again at once.
 */
final class OpenedResources {
  private static final Logger LOG = LoggerFactory.getLogger(OpenedResources.class);
  private final Deque<AutoCloseable> opened = new ArrayDeque<>();

  /** Remembers {@code resource} (closed by {@link #closeAll}) and returns it. */
  <T extends AutoCloseable> T add(T resource) {
    opened.push(resource);
    return resource;
  }

  /** Closes everything remembered, newest first; a failure to close is added to {@code failure} as suppressed. */
  void closeAll(Throwable failure) {
    while (!opened.isEmpty()) {
      AutoCloseable resource = opened.pop();
      try {
        resource.close();
      } catch (Exception | Error e) {
        LOG.warn("closing {} after a failed start failed: {}", resource.getClass().getSimpleName(), e.toString());
        failure.addSuppressed(e);
      }
    }
  }
}
