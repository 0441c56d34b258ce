package dev.lake.flight.spool;

import dev.lake.flight.values.ConfigValues;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where and for how long heavy results (PollFlightInfo, API tier 2) are kept (keys {@code results.*} in
 * docs/config.md).
 *
 * @param prefix where spooled results and their poll state live: {@code s3://bucket/prefix} (presigned URLs are
 *     handed out) or a local directory (gRPC only); by default {@code <data.root>/.lake-results}, a path no table
 *     name can take
 * @param lifetime how long a spooled result can be fetched after its query was started; then it is deleted
 * @param sweepInterval how often each node deletes expired results
 * @param partBytes a spooled part is closed (and uploaded) once it holds about this many bytes
 */
public record ResultSettings(String prefix, Duration lifetime, Duration sweepInterval, long partBytes) {
  /** The directory under the data root used when {@code results.prefix} is not set. */
  public static final String DEFAULT_DIRECTORY = ".lake-results";
  /** The keys this record reads, with their defaults (null = derived). */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("results.prefix", null);
    keys.put("results.lifetime", "1h");
    keys.put("results.sweep-interval", "1m");
    keys.put("results.part-size", "64MB");
    KEYS = Collections.unmodifiableMap(keys);
  }

  public ResultSettings {
    Objects.requireNonNull(prefix, "prefix");
    prefix = strip(prefix);
    if (prefix.isEmpty()) {
      throw new IllegalArgumentException("results.prefix is empty");
    }
    positive("results.lifetime", lifetime);
    positive("results.sweep-interval", sweepInterval);
    if (partBytes < 1 << 16) {
      throw new IllegalArgumentException("results.part-size must be at least 64KB");
    }
  }

  /** Reads {@link #KEYS} from merged configuration values; the default prefix lies under {@code dataRoot}. */
  public static ResultSettings fromKeys(Map<String, String> values, String dataRoot) {
    Map<String, String> v = new LinkedHashMap<>(KEYS);
    values.forEach((k, value) -> {
      if (KEYS.containsKey(k) && value != null && !value.isBlank()) {
        v.put(k, value);
      }
    });
    String prefix = v.get("results.prefix");
    if (prefix == null) {
      prefix = strip(dataRoot) + "/" + DEFAULT_DIRECTORY;
    }
    return new ResultSettings(prefix, ConfigValues.duration("results.lifetime", v.get("results.lifetime")),
        ConfigValues.duration("results.sweep-interval", v.get("results.sweep-interval")),
        ConfigValues.bytes("results.part-size", v.get("results.part-size")));
  }

  private static void positive(String key, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(key + " must be a positive duration (e.g. 30s, 15m, 1h)");
    }
  }

  private static String strip(String s) {
    String t = s.strip();
    while (t.length() > 1 && t.endsWith("/")) {
      t = t.substring(0, t.length() - 1);
    }
    return t;
  }
}
