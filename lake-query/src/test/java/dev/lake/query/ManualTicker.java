package dev.lake.query;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A monotonic ticker the test moves by hand. */
final class ManualTicker implements Ticker {
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  @Override
  public long read() {
    return nanos.get();
  }

  void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }
}
