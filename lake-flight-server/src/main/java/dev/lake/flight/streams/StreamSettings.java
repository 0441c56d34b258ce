package dev.lake.flight.streams;

import dev.lake.flight.values.ConfigValues;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Limits on incoming DoPut streams (keys {@code ingest.first-message-timeout} and
 * {@code ingest.max-streams-per-user} in docs/config.md).
 *
 * @param firstMessageTimeout how long a DoPut may take to send its descriptor, and then its schema, before the
 *     server closes it with DEADLINE_EXCEEDED (the thread waiting for them is freed)
 * @param maxStreamsPerUser how many DoPut streams one user may have open on a node at once; one more is refused
 *     with RESOURCE_EXHAUSTED
 */
public record StreamSettings(Duration firstMessageTimeout, int maxStreamsPerUser) {
  /** The keys this record reads, with their defaults. */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("ingest.first-message-timeout", "10s");
    keys.put("ingest.max-streams-per-user", "32");
    KEYS = Collections.unmodifiableMap(keys);
  }

  public StreamSettings {
    if (firstMessageTimeout == null || firstMessageTimeout.isNegative() || firstMessageTimeout.isZero()) {
      throw new IllegalArgumentException("ingest.first-message-timeout must be a positive duration (e.g. 10s)");
    }
    if (maxStreamsPerUser < 1 || maxStreamsPerUser > 100_000) {
      throw new IllegalArgumentException("ingest.max-streams-per-user must be 1..100000, was " + maxStreamsPerUser);
    }
  }

  public static StreamSettings defaults() {
    return fromKeys(Map.of());
  }

  /** Reads {@link #KEYS} from merged configuration values (missing keys take their defaults). */
  public static StreamSettings fromKeys(Map<String, String> values) {
    Map<String, String> v = new LinkedHashMap<>(KEYS);
    values.forEach((k, value) -> {
      if (KEYS.containsKey(k) && value != null) {
        v.put(k, value);
      }
    });
    String max = v.get("ingest.max-streams-per-user").strip();
    int maxStreams;
    try {
      maxStreams = Integer.parseInt(max);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("ingest.max-streams-per-user = '" + max + "' is not an integer");
    }
    return new StreamSettings(ConfigValues.duration("ingest.first-message-timeout",
        v.get("ingest.first-message-timeout")), maxStreams);
  }
}
