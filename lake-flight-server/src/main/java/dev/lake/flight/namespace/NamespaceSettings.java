package dev.lake.flight.namespace;

import dev.lake.flight.values.ConfigValues;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The Lance REST Namespace endpoint and snapshot pins (keys {@code namespace.*} in docs/config.md).
 *
 * @param enabled whether the HTTP endpoint runs ({@code lake.resolve_table} and {@code lake.pin_snapshot} answer on
 *     Flight either way)
 * @param host the address it binds: loopback unless the Flight endpoint serves TLS (the same PEM files serve HTTPS)
 * @param port its port (0 = any free port, reported by {@code LakeServer.namespacePort()})
 * @param credentialLifetime how long vended S3 storage options are declared valid ({@code expires_at_millis}); a
 *     client describes the table again before then
 * @param maxPins how many unexpired snapshot pins the registry may hold
 * @param maxPinTtl the longest lifetime a pin may ask for
 */
public record NamespaceSettings(boolean enabled, String host, int port, Duration credentialLifetime, int maxPins,
    Duration maxPinTtl) {
  /** The keys this record reads, with their defaults. */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("namespace.enabled", "false");
    keys.put("namespace.host", "127.0.0.1");
    keys.put("namespace.port", "2333");
    keys.put("namespace.credential-lifetime", "15m");
    keys.put("namespace.max-pins", "1000");
    keys.put("namespace.max-pin-ttl", "24h");
    KEYS = Collections.unmodifiableMap(keys);
  }

  public NamespaceSettings {
    Objects.requireNonNull(host, "host");
    if (host.isBlank()) {
      throw new IllegalArgumentException("namespace.host must name an address to bind (e.g. 127.0.0.1)");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("namespace.port must be 0..65535, was " + port);
    }
    positive("namespace.credential-lifetime", credentialLifetime);
    positive("namespace.max-pin-ttl", maxPinTtl);
    if (maxPins < 1 || maxPins > 100_000) {
      throw new IllegalArgumentException("namespace.max-pins must be 1..100000, was " + maxPins);
    }
  }

  public static NamespaceSettings defaults() {
    return fromKeys(Map.of());
  }

  /** Reads {@link #KEYS} from merged configuration values (missing keys take their defaults). */
  public static NamespaceSettings fromKeys(Map<String, String> values) {
    Map<String, String> v = new LinkedHashMap<>(KEYS);
    values.forEach((k, value) -> {
      if (KEYS.containsKey(k) && value != null) {
        v.put(k, value);
      }
    });
    return new NamespaceSettings(bool("namespace.enabled", v.get("namespace.enabled")),
        v.get("namespace.host").strip(), integer("namespace.port", v.get("namespace.port")),
        ConfigValues.duration("namespace.credential-lifetime", v.get("namespace.credential-lifetime")),
        integer("namespace.max-pins", v.get("namespace.max-pins")),
        ConfigValues.duration("namespace.max-pin-ttl", v.get("namespace.max-pin-ttl")));
  }

  private static void positive(String key, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(key + " must be a positive duration (e.g. 15m, 2h)");
    }
  }

  private static boolean bool(String key, String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(key + " = '" + text + "' is not true or false");
    };
  }

  private static int integer(String key, String text) {
    try {
      return Integer.parseInt(text.strip());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(key + " = '" + text + "' is not an integer");
    }
  }
}
