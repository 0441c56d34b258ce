package dev.lake.it.tpch;

import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.it.support.ForwardingTableEngine;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A real engine that counts the statements lake hands to Lance's SQL engine ({@link TableSnapshot#sql}) and the
 * per-fragment scans of lake's vectorized executor: what a server-level test observes of whole-subtree push-down.
 */
public final class CountingSqlEngine extends ForwardingTableEngine {
  private final AtomicLong statements = new AtomicLong();
  private final AtomicLong fragmentScans = new AtomicLong();

  public CountingSqlEngine(TableEngine delegate) {
    super(delegate);
  }

  /** Statements run by Lance's SQL engine so far. */
  public long statements() {
    return statements.get();
  }

  /** Per-fragment scans opened so far (what lake's vectorized executor reads). */
  public long fragmentScans() {
    return fragmentScans.get();
  }

  @Override
  public TableSnapshot open(String location, long version, BufferAllocator allocator) {
    TableSnapshot snapshot = delegate.open(location, version, allocator);
    return (TableSnapshot) Proxy.newProxyInstance(TableSnapshot.class.getClassLoader(),
        new Class<?>[] {TableSnapshot.class}, (self, method, args) -> {
          if (method.getName().equals("sql")) {
            statements.incrementAndGet();
          } else if (method.getName().equals("scanFragments")) {
            fragmentScans.incrementAndGet();
          }
          try {
            return method.invoke(snapshot, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
