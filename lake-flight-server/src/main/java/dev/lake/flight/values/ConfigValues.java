package dev.lake.flight.values;

import java.time.Duration;
import java.util.Locale;

/**
 * The value syntax of lake's configuration (docs/config.md): durations and sizes. The settings of each package parse
 * their keys with it; it imports nothing of lake, so no settings class needs the loader that composes them.
 */
public final class ConfigValues {
  private ConfigValues() {}

  /** Parses {@code 500ms}, {@code 30s}, {@code 15m}, {@code 12h}, {@code 7d} or an ISO-8601 duration. */
  public static Duration duration(String key, String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("p")) {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      }
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      long n = Long.parseLong(t.substring(0, t.length() - 1));
      return switch (t.charAt(t.length() - 1)) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        case 'd' -> Duration.ofDays(n);
        default -> throw new NumberFormatException();
      };
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(key + " = '" + text + "' is not a duration (e.g. 500ms, 30s, 15m, 12h)");
    }
  }

  /** Parses {@code 1048576}, {@code 64KB}, {@code 512MB}, {@code 2GB} (binary multiples). */
  public static long bytes(String key, String text) {
    String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
    long unit = 1;
    for (String[] suffix : new String[][] {{"KB", "1024"}, {"MB", "1048576"}, {"GB", "1073741824"}}) {
      if (t.endsWith(suffix[0])) {
        unit = Long.parseLong(suffix[1]);
        t = t.substring(0, t.length() - 2).trim();
        break;
      }
    }
    try {
      return Math.multiplyExact(Long.parseLong(t), unit);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(key + " = '" + text + "' is not a size (e.g. 64MB, 1GB)");
    }
  }
}
