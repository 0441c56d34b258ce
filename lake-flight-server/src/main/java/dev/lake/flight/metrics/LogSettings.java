package dev.lake.flight.metrics;

import dev.lake.flight.values.ConfigValues;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Logging (keys {@code log.format} and {@code log.slow-query-threshold} in docs/config.md).
 *
 * @param format {@code text} (one line per event, the query id in brackets) or {@code json} (one JSON object per
 *     line, logback's JsonEncoder, the query id in its {@code mdc})
 * @param slowQueryThreshold a query running at least this long (DoGet's start to its last batch) is logged on one
 *     line by {@link SlowQueryLog}; empty = off ({@code log.slow-query-threshold: off}); zero logs every query
 */
public record LogSettings(String format, Optional<Duration> slowQueryThreshold) {
  public static final String TEXT = "text";
  public static final String JSON = "json";

  /** The keys this record reads, with their defaults. */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("log.format", TEXT);
    keys.put("log.slow-query-threshold", "10s");
    KEYS = Collections.unmodifiableMap(keys);
  }

  public LogSettings {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(slowQueryThreshold, "slowQueryThreshold");
    if (!format.equals(TEXT) && !format.equals(JSON)) {
      throw new IllegalArgumentException("log.format must be 'text' or 'json', was '" + format + "'");
    }
    if (slowQueryThreshold.isPresent() && slowQueryThreshold.get().isNegative()) {
      throw new IllegalArgumentException("log.slow-query-threshold must be a duration >= 0 or 'off'");
    }
  }

  public static LogSettings defaults() {
    return fromKeys(Map.of());
  }

  /** Reads {@link #KEYS} from merged configuration values (missing keys take their defaults). */
  public static LogSettings fromKeys(Map<String, String> values) {
    Map<String, String> v = MetricsSettings.Settings.merged(KEYS, values);
    String threshold = v.get("log.slow-query-threshold").strip();
    return new LogSettings(v.get("log.format").strip().toLowerCase(Locale.ROOT),
        threshold.equalsIgnoreCase("off") ? Optional.empty()
            : Optional.of(ConfigValues.duration("log.slow-query-threshold", threshold)));
  }
}
