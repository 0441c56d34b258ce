package dev.lake.flight.limits;

import dev.lake.flight.values.ConfigValues;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Limits (keys {@code query.timeout}, {@code query.max-concurrent}, {@code query.max-queued},
 * {@code ingest.idle-timeout}, {@code query.planning-timeout} in docs/config.md).
 *
 * @param timeout how long one query may run, from DoGet's start (queueing included) to its last batch
 * @param maxConcurrent how many queries run at once on this node
 * @param maxQueued how many more wait for a slot; beyond them a query is refused with RESOURCE_EXHAUSTED
 * @param ingestIdleTimeout how long a server thread waits for a client's next batch of an ingest (or of prepared
 *     statement parameters) before it stops the stream with DEADLINE_EXCEEDED
 * @param planningTimeout how long a planning request (GetFlightInfo, CreatePreparedStatement, GetSchema,
 *     PollFlightInfo's start) may plan before its work is stopped with DEADLINE_EXCEEDED
 */
public record LimitSettings(Duration timeout, int maxConcurrent, int maxQueued, Duration ingestIdleTimeout,
    Duration planningTimeout) {
  /** The default of {@code query.planning-timeout}. */
  public static final Duration DEFAULT_PLANNING_TIMEOUT = Duration.ofMinutes(1);

  /** The keys this record reads, with their defaults. */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("query.timeout", "30m");
    keys.put("query.max-concurrent", "16");
    keys.put("query.max-queued", "64");
    keys.put("ingest.idle-timeout", "5m");
    keys.put("query.planning-timeout", "1m");
    KEYS = Collections.unmodifiableMap(keys);
  }

  public LimitSettings {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("query.timeout must be a positive duration (e.g. 30s, 30m)");
    }
    if (maxConcurrent < 1 || maxConcurrent > 100_000) {
      throw new IllegalArgumentException("query.max-concurrent must be 1..100000, was " + maxConcurrent);
    }
    if (maxQueued < 0 || maxQueued > 1_000_000) {
      throw new IllegalArgumentException("query.max-queued must be 0..1000000, was " + maxQueued);
    }
    if (ingestIdleTimeout == null || ingestIdleTimeout.isNegative() || ingestIdleTimeout.isZero()) {
      throw new IllegalArgumentException("ingest.idle-timeout must be a positive duration (e.g. 5m)");
    }
    if (planningTimeout == null || planningTimeout.isNegative() || planningTimeout.isZero()) {
      throw new IllegalArgumentException("query.planning-timeout must be a positive duration (e.g. 1m)");
    }
  }

  /** These limits with the default planning timeout ({@link #DEFAULT_PLANNING_TIMEOUT}). */
  public LimitSettings(Duration timeout, int maxConcurrent, int maxQueued, Duration ingestIdleTimeout) {
    this(timeout, maxConcurrent, maxQueued, ingestIdleTimeout, DEFAULT_PLANNING_TIMEOUT);
  }

  public static LimitSettings defaults() {
    return fromKeys(Map.of());
  }

  /** Reads {@link #KEYS} from merged configuration values (missing keys take their defaults). */
  public static LimitSettings fromKeys(Map<String, String> values) {
    Map<String, String> v = new LinkedHashMap<>(KEYS);
    values.forEach((k, value) -> {
      if (KEYS.containsKey(k) && value != null) {
        v.put(k, value);
      }
    });
    return new LimitSettings(ConfigValues.duration("query.timeout", v.get("query.timeout")),
        integer("query.max-concurrent", v.get("query.max-concurrent")),
        integer("query.max-queued", v.get("query.max-queued")),
        ConfigValues.duration("ingest.idle-timeout", v.get("ingest.idle-timeout")),
        ConfigValues.duration("query.planning-timeout", v.get("query.planning-timeout")));
  }

  private static int integer(String key, String text) {
    try {
      return Integer.parseInt(text.strip());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(key + " = '" + text + "' is not an integer");
    }
  }
}
