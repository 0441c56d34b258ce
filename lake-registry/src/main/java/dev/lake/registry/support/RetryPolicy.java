package dev.lake.registry.support;

import dev.lake.registry.RegistryUnavailableException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Bounded retry with exponential backoff and full jitter, for transient backend failures that wrote nothing
 * (lock time-outs, transaction conflicts, throttling).
 *
 * @param maxAttempts attempts in total, including the first (>= 1)
 * @param baseDelay the upper bound of the first pause; doubles per attempt
 * @param maxDelay the cap of any single pause
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {
  public RetryPolicy {
    Objects.requireNonNull(baseDelay, "baseDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (maxAttempts < 1) throw new IllegalArgumentException("maxAttempts must be >= 1, was " + maxAttempts);
    if (baseDelay.isNegative() || maxDelay.isNegative()) {
      throw new IllegalArgumentException("retry delays must not be negative");
    }
  }

  /** 6 attempts, pauses from up to 10 ms growing to at most 200 ms (about 0.5 s in the worst case). */
  public static RetryPolicy defaults() {
    return new RetryPolicy(6, Duration.ofMillis(10), Duration.ofMillis(200));
  }

  /** The jittered pause before attempt {@code attempt} (2 for the first retry). */
  public Duration delayBefore(int attempt) {
    if (attempt < 2) return Duration.ZERO;
    long capMillis = Math.min(maxDelay.toMillis(), baseDelay.toMillis() << Math.min(attempt - 2, 20));
    return capMillis <= 0 ? Duration.ZERO : Duration.ofMillis(ThreadLocalRandom.current().nextLong(capMillis + 1));
  }

  /**
   * Pauses before attempt {@code attempt}. An interrupt ends the wait, keeps the interrupt flag and throws
   * {@link RegistryUnavailableException} (nothing more is attempted).
   */
  public void pauseBefore(int attempt, String what) {
    Duration delay = delayBefore(attempt);
    if (delay.isZero()) return;
    try {
      Thread.sleep(delay.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryUnavailableException(
          "interrupted while retrying " + what + "; the operation was not completed", e);
    }
  }
}
