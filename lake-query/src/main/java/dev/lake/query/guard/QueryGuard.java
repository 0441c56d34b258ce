package dev.lake.query.guard;

import dev.lake.registry.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The stop flag of one executing statement. Whoever ends the query early (its timeout, its client's cancel, the
 * node's memory guard) calls {@link #stop}; the work polls {@link #check()} in every loop that can run long — the
 * planner before each rule it fires, Calcite's generated code for every row an operator consumes, the vectorized
 * executor for every chunk, the Lance scans for every batch — and unwinds with a {@link QueryStoppedException}.
 * Listeners registered with {@link #onStop} run once, on the stopping thread (they close native scans, set
 * Calcite's cancel flag). Thread-safe; polling costs one volatile read.
 */
public final class QueryGuard {
  private final AtomicBoolean cancelFlag = new AtomicBoolean();
  private final List<Runnable> listeners = new ArrayList<>();
  private volatile QueryStoppedException reason;

  /** A guard nobody has stopped yet. */
  public QueryGuard() {}

  /**
   * Stops the work with {@code code} and {@code message} (the first stop wins) and runs the listeners.
   *
   * @return false when the work was stopped before
   */
  public boolean stop(ErrorCode code, String message) {
    List<Runnable> toRun;
    synchronized (this) {
      if (reason != null) {
        return false;
      }
      reason = new QueryStoppedException(code, message);
      cancelFlag.set(true);
      toRun = new ArrayList<>(listeners);
      listeners.clear();
    }
    for (Runnable listener : toRun) {
      try {
        listener.run();
      } catch (RuntimeException ignored) {
        // a listener closes something that may already be closed; the stop itself stands
      }
    }
    return true;
  }

  /** Throws the reason the work was stopped, if it was. */
  public void check() {
    QueryStoppedException stopped = reason;
    if (stopped != null) {
      throw new QueryStoppedException(stopped.errorCode(), stopped.getMessage());
    }
  }

  public boolean isStopped() {
    return reason != null;
  }

  /** Set when the work is stopped: the flag Calcite's planner and generated code read. */
  public AtomicBoolean cancelFlag() {
    return cancelFlag;
  }

  /**
   * Runs {@code listener} when the work is stopped (now, if it already was). The returned handle removes it again
   * (call it once what it would stop has ended by itself).
   */
  public AutoCloseable onStop(Runnable listener) {
    boolean now;
    synchronized (this) {
      now = reason != null;
      if (!now) {
        listeners.add(listener);
      }
    }
    if (now) {
      listener.run();
      return () -> { };
    }
    return () -> {
      synchronized (this) {
        listeners.remove(listener);
      }
    };
  }
}
