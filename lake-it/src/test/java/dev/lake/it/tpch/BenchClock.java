package dev.lake.it.tpch;

import java.util.ArrayList;
import java.util.List;

/** Runs timed operations, interleaved across engines (A B A B), after a warm-up, within a per-run cap. */
final class BenchClock {
  private BenchClock() {}

  /** One measured operation. */
  @FunctionalInterface
  interface Action {
    Object run() throws Exception;
  }

  /** An engine's way of running the operation under test. */
  record Timed(String name, Action action) {}

  static long time(Action action) throws Exception {
    long start = System.nanoTime();
    action.run();
    return System.nanoTime() - start;
  }

  /**
   * One warm-up round, then {@code runs} rounds, each running every engine once in turn. An engine whose run takes
   * longer than {@code capNanos} is not run again (its samples are marked capped; a capped warm-up is its only
   * sample).
   */
  static List<Samples> interleave(List<Timed> engines, int runs, long capNanos) throws Exception {
    List<Samples> samples = new ArrayList<>();
    for (Timed engine : engines) {
      Samples measured = new Samples();
      long warmUp = time(engine.action());
      if (warmUp > capNanos) {
        measured.add(warmUp);
        measured.capped();
      }
      samples.add(measured);
    }
    for (int run = 0; run < runs; run++) {
      for (int e = 0; e < engines.size(); e++) {
        Samples measured = samples.get(e);
        if (measured.isCapped()) {
          continue;
        }
        long elapsed = time(engines.get(e).action());
        measured.add(elapsed);
        if (elapsed > capNanos) {
          measured.capped();
        }
      }
    }
    return samples;
  }
}
