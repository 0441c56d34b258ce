package dev.lake.metasrv;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One lock per table name, held around every Lance commit and registry write of that table (docs/design.md invariant
 * 3). Entries are reference-counted and removed when no thread holds or waits for them, so the map does not grow
 * with the number of tables ever written.
 */
public final class TableLocks {
  private final ConcurrentHashMap<String, Entry> locks = new ConcurrentHashMap<>();
  private final long timeoutMillis;

  private static final class Entry {
    final ReentrantLock lock = new ReentrantLock(true);
    int users;
  }

  /** @param timeoutMillis how long a writer waits for a table's lock before giving up (a bug or a stuck commit). */
  public TableLocks(long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
  }

  /** Runs {@code body} holding the lock of {@code table}. */
  public <T> T withLock(String table, Supplier<T> body) {
    Entry entry = locks.compute(table, (k, e) -> {
      Entry v = e == null ? new Entry() : e;
      v.users++;
      return v;
    });
    try {
      if (!entry.lock.tryLock(timeoutMillis, TimeUnit.MILLISECONDS)) {
        throw new WriteConflictException("timed out after " + timeoutMillis + " ms waiting for the write lock of '"
            + table + "'; another write to it is still committing: retry");
      }
      try {
        return body.get();
      } finally {
        entry.lock.unlock();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WriteConflictException("interrupted while waiting for the write lock of '" + table + "'");
    } finally {
      locks.compute(table, (k, e) -> --e.users == 0 ? null : e);
    }
  }

  /** Number of tables with a lock entry (held or awaited); for tests and metrics. */
  public int size() {
    return locks.size();
  }
}
