package dev.lake.it.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A wall clock a test steers: it stands still until {@link #advance} or {@link #set} moves it. Thread-safe. */
public final class MutableClock extends Clock {
  private final AtomicReference<Instant> now;
  private final ZoneId zone;

  public MutableClock(Instant start) {
    this(new AtomicReference<>(start), ZoneOffset.UTC);
  }

  private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  /** Moves the clock forward by {@code d} and returns the new time. */
  public Instant advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("a wall clock in these tests only moves forward: " + d);
    }
    return now.updateAndGet(t -> t.plus(d));
  }

  public void set(Instant instant) {
    now.set(instant);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return new MutableClock(now, zone);
  }
}
