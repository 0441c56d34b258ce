package dev.lake.query.exec;

import dev.lake.query.model.PushdownStats;
import java.util.concurrent.atomic.LongAdder;

/** Counts pushed-down Lance SQL statements and fallbacks for one query service. Thread-safe. */
public final class PushdownCounters {
  private final LongAdder statements = new LongAdder();
  private final LongAdder wholeStatements = new LongAdder();
  private final LongAdder fallbacks = new LongAdder();
  private final LongAdder vectorized = new LongAdder();
  private final LongAdder cachedScans = new LongAdder();

  void cachedScan() {
    cachedScans.increment();
  }

  void vectorized() {
    vectorized.increment();
  }

  void ran(boolean whole) {
    statements.increment();
    if (whole) {
      wholeStatements.increment();
    }
  }

  void fellBack() {
    fallbacks.increment();
  }

  public PushdownStats stats() {
    return new PushdownStats(statements.sum(), wholeStatements.sum(), fallbacks.sum(), vectorized.sum(),
        cachedScans.sum());
  }
}
