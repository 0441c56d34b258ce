package dev.lake.query;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Bounded polling for a condition another thread brings about (never a sleep standing in for synchronization). */
final class Polling {
  private Polling() {}

  static void await(String what, BooleanSupplier condition, Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + bound + " waiting until " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
    }
  }
}
