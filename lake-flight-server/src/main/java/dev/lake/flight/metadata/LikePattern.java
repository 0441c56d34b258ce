package dev.lake.flight.metadata;

import java.util.regex.Pattern;

/**
 * A Flight SQL / JDBC search pattern: {@code %} matches any run of characters, {@code _} any one
 * character, and {@code \} (lake's search-string escape) makes the next character literal. Matching
 * is case-insensitive, because lake's identifiers are and the JDBC driver upper-cases them.
 */
final class LikePattern {

  private static final LikePattern ANY = new LikePattern(null);

  private final Pattern regex;

  private LikePattern(Pattern regex) {
    this.regex = regex;
  }

  /**
   * Compiles a pattern.
   *
   * @param pattern the search pattern, or null to match everything
   * @return the compiled pattern
   */
  static LikePattern of(String pattern) {
    if (pattern == null) {
      return ANY;
    }
    StringBuilder regex = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        literal.append(pattern.charAt(++i));
      } else if (c == '%' || c == '_') {
        flush(literal, regex);
        regex.append(c == '%' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    flush(literal, regex);
    return new LikePattern(
        Pattern.compile(
            regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL));
  }

  /** Whether {@code value} matches the whole pattern. */
  boolean matches(String value) {
    return regex == null || regex.matcher(value).matches();
  }

  private static void flush(StringBuilder literal, StringBuilder regex) {
    if (literal.length() > 0) {
      regex.append(Pattern.quote(literal.toString()));
      literal.setLength(0);
    }
  }
}
