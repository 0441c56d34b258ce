package dev.lake.registry.rocksdb;

import dev.lake.registry.support.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of {@link RocksDbMetaStore}.
 *
 * @param lockTimeout how long a transaction waits for a row lock before the attempt fails (then it is retried)
 * @param retry attempts and backoff for lock time-outs and busy transactions
 * @param syncWrites fsync the write-ahead log on every commit (must stay true in production: an acknowledged
 *     write survives a crash of the machine)
 */
public record RocksDbSettings(Duration lockTimeout, RetryPolicy retry, boolean syncWrites) {
  public RocksDbSettings {
    Objects.requireNonNull(lockTimeout, "lockTimeout");
    Objects.requireNonNull(retry, "retry");
    if (lockTimeout.isNegative() || lockTimeout.isZero()) {
      throw new IllegalArgumentException("lockTimeout must be positive, was " + lockTimeout);
    }
  }

  public static RocksDbSettings defaults() {
    return new RocksDbSettings(Duration.ofSeconds(2), RetryPolicy.defaults(), true);
  }
}
