package dev.lake.registry;

import java.util.Locale;
import java.util.regex.Pattern;

/** Table names are SQL identifiers, matched case-insensitively and stored lower-case; never a path. */
public final class TableNames {
  private static final Pattern VALID = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

  private TableNames() {}

  /** Returns the canonical (lower-case) form, or throws {@link InvalidNameException} saying why not. */
  public static String normalize(String raw) {
    if (raw == null || !VALID.matcher(raw).matches()) {
      String shown = raw == null ? "null" : raw.length() > 64 ? raw.substring(0, 64) + "..." : raw;
      throw new InvalidNameException("invalid table name '" + shown
          + "': a table name is a letter or underscore followed by up to 127 letters, digits or underscores");
    }
    return raw.toLowerCase(Locale.ROOT);
  }

  public static boolean isValid(String raw) {
    return raw != null && VALID.matcher(raw).matches();
  }
}
