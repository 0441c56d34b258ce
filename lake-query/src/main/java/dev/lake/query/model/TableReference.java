package dev.lake.query.model;

import dev.lake.registry.TableNames;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table as a statement names it: the current version of a table ({@code t}), a registered version of it by
 * number ({@code "t@v42"}), or the version that was current at an instant ({@code t FOR SYSTEM_TIME AS OF TIMESTAMP
 * '2026-01-01 00:00:00'}, which the parser rewrites to the reference {@code t@2026-01-01T00:00:00Z}).
 *
 * <p>The {@link #key()} identifies a reference within a statement: it keys {@link dev.lake.query.PreparedQuery#pins()} and the
 * pins {@link dev.lake.query.QueryService#execute} takes, so one statement can read the same table at several versions.
 *
 * @param name the lower-case table name
 * @param version the registered version asked for, if any
 * @param asOf the instant whose current version is asked for, if any (at most one of version and asOf)
 */
public record TableReference(String name, Optional<Long> version, Optional<Instant> asOf) {
  private static final Pattern VERSION = Pattern.compile("[vV]([0-9]{1,18})");

  public TableReference {
    name = TableNames.normalize(name);
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(asOf, "asOf");
    if (version.isPresent() && asOf.isPresent()) {
      throw new IllegalArgumentException("a table reference names a version or an instant, not both");
    }
  }

  /** The current version of {@code name}. */
  public static TableReference current(String name) {
    return new TableReference(name, Optional.empty(), Optional.empty());
  }

  /** Registered version {@code version} of {@code name}. */
  public static TableReference atVersion(String name, long version) {
    return new TableReference(name, Optional.of(version), Optional.empty());
  }

  /** The version of {@code name} that was current at {@code instant}. */
  public static TableReference asOf(String name, Instant instant) {
    return new TableReference(name, Optional.empty(), Optional.of(instant));
  }

  /**
   * Parses a table name as written in a statement: {@code t}, {@code t@v42} or {@code t@<ISO-8601 instant>}
   * (case-insensitive). Empty when it is none of these (e.g. a path or URL).
   */
  public static Optional<TableReference> parse(String written) {
    if (written == null) {
      return Optional.empty();
    }
    if (TableNames.isValid(written)) {
      return Optional.of(current(written));
    }
    int at = written.indexOf('@');
    if (at < 1 || !TableNames.isValid(written.substring(0, at))) {
      return Optional.empty();
    }
    String name = written.substring(0, at);
    String suffix = written.substring(at + 1);
    Matcher version = VERSION.matcher(suffix);
    if (version.matches()) {
      return Optional.of(atVersion(name, Long.parseLong(version.group(1))));
    }
    try {
      return Optional.of(asOf(name, Instant.parse(suffix.toUpperCase(Locale.ROOT))));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** True for a time-travel reference (a version or an instant rather than the current version). */
  public boolean timeTravel() {
    return version.isPresent() || asOf.isPresent();
  }

  /** The canonical form: {@code t}, {@code t@v42} or {@code t@2026-01-01T00:00:00Z}; {@link #parse} reads it back. */
  public String key() {
    if (version.isPresent()) {
      return name + "@v" + version.get();
    }
    if (asOf.isPresent()) {
      return name + "@" + asOf.get();
    }
    return name;
  }

  @Override
  public String toString() {
    return key();
  }
}
