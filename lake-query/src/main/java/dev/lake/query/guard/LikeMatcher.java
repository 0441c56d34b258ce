package dev.lake.query.guard;

import java.util.Arrays;

/**
 * A compiled SQL LIKE pattern matched in O(length x pattern) time at worst, never by backtracking: {@code %} matches
 * any run of characters, {@code _} exactly one (a Unicode code point), the escape character makes the next
 * {@code %}, {@code _} or itself literal. Semantics equal Calcite's LIKE (and its errors for a bad escape).
 * Immutable.
 */
public final class LikeMatcher {
  private static final int ANY = -1;
  private static final int ONE = -2;

  private final String pattern;
  private final String escape;
  private final int[] tokens;

  private LikeMatcher(String pattern, String escape, int[] tokens) {
    this.pattern = pattern;
    this.escape = escape;
    this.tokens = tokens;
  }

  /**
   * Compiles {@code pattern}; {@code escape} is null or a single character.
   *
   * @throws IllegalArgumentException for an escape of another length, or one not followed by %, _ or itself (the
   *     message speaks SQL: the client's pattern or escape is wrong)
   */
  public static LikeMatcher compile(String pattern, String escape) {
    int esc = -1;
    if (escape != null) {
      if (escape.codePointCount(0, escape.length()) != 1) {
        throw new IllegalArgumentException(invalidEscape("LIKE", escape));
      }
      esc = escape.codePointAt(0);
    }
    int[] points = pattern.codePoints().toArray();
    int[] tokens = new int[points.length];
    int n = 0;
    for (int i = 0; i < points.length; i++) {
      int c = points[i];
      if (c == esc) {
        if (i + 1 >= points.length || (points[i + 1] != '%' && points[i + 1] != '_' && points[i + 1] != esc)) {
          throw new IllegalArgumentException("invalid LIKE pattern '" + shown(pattern) + "': its escape character '"
              + escape + "' (character " + (i + 1) + ") must be followed by %, _ or itself");
        }
        tokens[n++] = points[++i];
      } else if (c == '%') {
        if (n == 0 || tokens[n - 1] != ANY) {
          tokens[n++] = ANY;
        }
      } else if (c == '_') {
        tokens[n++] = ONE;
      } else {
        tokens[n++] = c;
      }
    }
    return new LikeMatcher(pattern, escape, Arrays.copyOf(tokens, n));
  }

  /** The refusal of an ESCAPE that is not one character, for LIKE or SIMILAR TO ({@code operator}). */
  static String invalidEscape(String operator, String escape) {
    return "invalid ESCAPE '" + shown(escape) + "' for " + operator + ": the escape must be exactly one character";
  }

  /** {@code text} as shown in an error message: at most 100 characters. */
  static String shown(String text) {
    return text.length() <= 100 ? text : text.substring(0, 100) + "...";
  }

  /** Whether this matcher was compiled from {@code pattern} and {@code escape}. */
  boolean compiledFrom(String otherPattern, String otherEscape) {
    return pattern.equals(otherPattern) && java.util.Objects.equals(escape, otherEscape);
  }

  /** Whether {@code s} matches the whole pattern. */
  public boolean matches(String s) {
    int[] text = s.codePoints().toArray();
    int t = 0;
    int p = 0;
    int star = -1;
    int resume = 0;
    while (t < text.length) {
      if (p < tokens.length && (tokens[p] == ONE || tokens[p] == text[t])) {
        t++;
        p++;
      } else if (p < tokens.length && tokens[p] == ANY) {
        star = p++;
        resume = t;
      } else if (star >= 0) {
        // the last % absorbs one more character; earlier %s never need to move again
        p = star + 1;
        t = ++resume;
      } else {
        return false;
      }
    }
    while (p < tokens.length && tokens[p] == ANY) {
      p++;
    }
    return p == tokens.length;
  }
}
