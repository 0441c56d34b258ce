package dev.lake.flight.limits;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Server-wide admission: at most {@code maxRunning} queries hold a slot; at most {@code maxQueued} more wait for
 * one (in arrival order, the lock is fair); any further query is refused at once with a
 * {@link QueryLimitException}. A waiter gives up at its deadline ({@link QueryTimeoutException}) or when its thread
 * is interrupted (the query was stopped). Thread-safe.
 */
public final class Admission {
  private final int maxRunning;
  private final int maxQueued;
  private final LongSupplier ticker;
  private final ReentrantLock lock = new ReentrantLock(true);
  private final Condition freed = lock.newCondition();
  private int running;
  private int queued;

  public Admission(int maxRunning, int maxQueued, LongSupplier ticker) {
    if (maxRunning < 1 || maxQueued < 0) {
      throw new IllegalArgumentException("maxRunning must be >= 1 and maxQueued >= 0");
    }
    this.maxRunning = maxRunning;
    this.maxQueued = maxQueued;
    this.ticker = ticker;
  }

  /**
   * Takes a slot, waiting in the queue until one frees up or {@code deadlineNanos} (on the ticker) passes.
   *
   * @throws QueryLimitException when every slot is taken and the queue is full
   * @throws QueryTimeoutException when the deadline passed while waiting
   * @throws InterruptedException when the waiting thread was interrupted (the query was stopped)
   */
  public Slot acquire(long deadlineNanos) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      if (running < maxRunning) {
        running++;
        return new Slot();
      }
      if (queued >= maxQueued) {
        throw new QueryLimitException("the server is busy: " + running + " queries are running (query.max-concurrent = "
            + maxRunning + ") and " + queued + " are waiting (query.max-queued = " + maxQueued + "); retry later");
      }
      queued++;
      try {
        while (running >= maxRunning) {
          long left = deadlineNanos - ticker.getAsLong();
          if (left <= 0) {
            throw new QueryTimeoutException("the query waited for a free slot until its timeout (query.timeout) "
                + "passed: the server is busy; retry later");
          }
          freed.await(left, TimeUnit.NANOSECONDS);
        }
        running++;
        return new Slot();
      } finally {
        queued--;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Queries holding a slot now. */
  public int running() {
    lock.lock();
    try {
      return running;
    } finally {
      lock.unlock();
    }
  }

  /** Queries waiting for a slot now. */
  public int queued() {
    lock.lock();
    try {
      return queued;
    } finally {
      lock.unlock();
    }
  }

  /** One admitted query's slot; {@link #close()} gives it back (once). */
  public final class Slot implements AutoCloseable {
    private boolean released;

    private Slot() {}

    @Override
    public void close() {
      lock.lock();
      try {
        if (!released) {
          released = true;
          running--;
          freed.signal();
        }
      } finally {
        lock.unlock();
      }
    }
  }
}
