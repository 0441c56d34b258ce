package dev.lake.flight.cli;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;

/** Durations on the command line: {@code 500ms}, {@code 2s}, {@code 1m}, or ISO-8601 ({@code PT2S}). */
final class DurationConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    try {
      if (v.startsWith("p")) {
        return Duration.parse(value.trim());
      }
      if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      }
      if (v.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      if (v.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      throw new IllegalArgumentException("no unit");
    } catch (RuntimeException e) {
      throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not a duration (e.g. 500ms, 2s, 1m)");
    }
  }
}
