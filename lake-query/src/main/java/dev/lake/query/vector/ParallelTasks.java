package dev.lake.query.vector;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The vectorized executor's way of running one execution's tasks on the shared pool: bounded in flight, results
 * consumed on the calling thread, and on failure no task starts any more, running ones are interrupted and waited
 * for, and results nobody consumed are closed.
 */
final class ParallelTasks {
  private ParallelTasks() {}

  /**
   * Runs {@code tasks} on {@code pool}, at most {@code maxInFlight} at a time, handing each result to {@code done} on
   * the calling thread; the first failure cancels the rest and is thrown.
   */
  static <T> void run(Executor pool, List<Callable<T>> tasks, Consumer<T> done, int maxInFlight) throws Exception {
    CompletionService<T> completion = new ExecutorCompletionService<>(pool);
    Deque<Callable<T>> waiting = new ArrayDeque<>(tasks);
    List<Future<T>> running = new ArrayList<>();
    Workers workers = new Workers();
    int inFlight = 0;
    try {
      while (!waiting.isEmpty() || inFlight > 0) {
        // two tasks per worker in flight: a worker never waits for this thread to hand it the next one
        while (!waiting.isEmpty() && inFlight < maxInFlight) {
          Callable<T> task = waiting.poll();
          running.add(completion.submit(() -> workers.run(task)));
          inFlight++;
        }
        Future<T> finished = completion.take();
        running.remove(finished);
        inFlight--;
        done.accept(finished.get());
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
    } finally {
      // On failure: no task starts any more, the running ones are interrupted and waited for (the query's allocator
      // closes after this), and results nobody consumed are freed.
      running.forEach(future -> future.cancel(true));
      workers.stopAndAwait();
      for (Future<T> future : running) {
        closeQuietly(future);
      }
    }
  }

  private static void closeQuietly(Future<?> future) {
    if (!future.isDone() || future.isCancelled()) {
      return;
    }
    try {
      if (future.get() instanceof AutoCloseable) {
        ((AutoCloseable) future.get()).close();
      }
    } catch (Exception ignored) {
      // it failed: nothing to free
    }
  }

  /** The tasks of one {@link #run} call that are running; once stopped, none starts. */
  private static final class Workers {
    private int running;
    private boolean stopped;

    <T> T run(Callable<T> task) throws Exception {
      synchronized (this) {
        if (stopped) {
          throw new java.util.concurrent.CancellationException("the vectorized execution stopped");
        }
        running++;
      }
      try {
        return task.call();
      } finally {
        synchronized (this) {
          running--;
          notifyAll();
        }
      }
    }

    synchronized void stopAndAwait() {
      stopped = true;
      boolean interrupted = false;
      while (running > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
