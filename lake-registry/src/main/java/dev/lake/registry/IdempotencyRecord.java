package dev.lake.registry;

import java.time.Instant;
import java.util.Objects;

/**
 * The outcome of an ingest that carried {@code lake.idempotency_key}: a repeat of the key returns this instead of
 * applying the ingest again. Keyed by generation, so a recreated table starts fresh.
 */
public record IdempotencyRecord(
    String table, String generation, String key, long version, long rowCount, Instant createdAt) {
  public static final int MAX_KEY_LENGTH = 256;

  public IdempotencyRecord {
    table = TableNames.normalize(table);
    Objects.requireNonNull(generation, "generation");
    Objects.requireNonNull(createdAt, "createdAt");
    validateKey(key);
    if (version < 1) throw new IllegalArgumentException("version must be >= 1, was " + version);
    if (rowCount < 0) throw new IllegalArgumentException("rowCount must be >= 0, was " + rowCount);
  }

  public static String validateKey(String key) {
    if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
      throw new InvalidNameException(
          "lake.idempotency_key must be 1 to " + MAX_KEY_LENGTH + " characters");
    }
    return key;
  }
}
