package dev.lake.it.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded polling for a condition another thread or process makes true (never a sleep to synchronize). */
public final class Poll {
  private Poll() {}

  /** Polls {@code condition} every few milliseconds until it holds; fails with {@code what} after {@code limit}. */
  public static void until(Duration limit, String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + limit + " waiting until " + what);
      }
      Thread.sleep(5);
    }
  }
}
