package dev.lake.flight.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The observability endpoint (keys {@code metrics.enabled}, {@code metrics.host}, {@code metrics.port} in
 * docs/config.md): Prometheus metrics on {@code /metrics}, liveness on {@code /health}, readiness on {@code /ready}.
 *
 * @param enabled whether the HTTP endpoint runs (meters are kept either way)
 * @param host the address it binds (loopback by default: it has no authentication)
 * @param port its port (0 = any free port, reported by {@code LakeServer.metricsPort()})
 */
public record MetricsSettings(boolean enabled, String host, int port) {
  /** The keys this record reads, with their defaults. */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("metrics.enabled", "false");
    keys.put("metrics.host", "127.0.0.1");
    keys.put("metrics.port", "9464");
    KEYS = Collections.unmodifiableMap(keys);
  }

  public MetricsSettings {
    Objects.requireNonNull(host, "host");
    if (host.isBlank()) {
      throw new IllegalArgumentException("metrics.host must name an address to bind (e.g. 127.0.0.1)");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("metrics.port must be 0..65535, was " + port);
    }
  }

  public static MetricsSettings defaults() {
    return fromKeys(Map.of());
  }

  /** Reads {@link #KEYS} from merged configuration values (missing keys take their defaults). */
  public static MetricsSettings fromKeys(Map<String, String> values) {
    Map<String, String> v = Settings.merged(KEYS, values);
    return new MetricsSettings(Settings.bool("metrics.enabled", v.get("metrics.enabled")), v.get("metrics.host").strip(),
        Settings.integer("metrics.port", v.get("metrics.port")));
  }

  /** Small parsing helpers shared by this package's settings records. */
  static final class Settings {
    private Settings() {}

    static Map<String, String> merged(Map<String, String> keys, Map<String, String> values) {
      Map<String, String> v = new LinkedHashMap<>(keys);
      values.forEach((k, value) -> {
        if (keys.containsKey(k) && value != null) {
          v.put(k, value);
        }
      });
      return v;
    }

    static boolean bool(String key, String text) {
      String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
      return switch (t) {
        case "true" -> true;
        case "false" -> false;
        default -> throw new IllegalArgumentException(key + " = '" + text + "' is not true or false");
      };
    }

    static int integer(String key, String text) {
      try {
        return Integer.parseInt(text.strip());
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(key + " = '" + text + "' is not an integer");
      }
    }
  }
}
