package dev.lake.flight.metadata;

/**
 * A Flight SQL / JDBC search pattern: {@code %} matches any run of characters, {@code _} any one
 * character, and {@code \} (lake's search-string escape) makes the next character literal. Matching
 * is case-insensitive, because lake's identifiers are and the JDBC driver upper-cases them.
 *
 * <p>Matching never backtracks more than once per pattern position (the greedy wildcard algorithm:
 * O(name length x pattern length) at worst), so a hostile pattern such as thousands of {@code %} or
 * {@code %a%a%a...%b} costs microseconds, where a regular expression would backtrack exponentially or
 * overflow the stack.
 */
final class LikePattern {
  private static final char ANY_RUN = '%';
  private static final char ANY_ONE = '_';
  private static final LikePattern ANY = new LikePattern(null, null);

  /** Per pattern position: the character, and whether it is a wildcard (else a literal). */
  private final char[] chars;
  private final boolean[] wildcard;

  private LikePattern(char[] chars, boolean[] wildcard) {
    this.chars = chars;
    this.wildcard = wildcard;
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
    StringBuilder chars = new StringBuilder();
    StringBuilder kinds = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        chars.append(pattern.charAt(++i));
        kinds.append('L');
      } else if (c == ANY_RUN || c == ANY_ONE) {
        if (c == ANY_RUN && kinds.length() > 0 && kinds.charAt(kinds.length() - 1) == 'W'
            && chars.charAt(chars.length() - 1) == ANY_RUN) {
          continue; // "%%" is "%"
        }
        chars.append(c);
        kinds.append('W');
      } else {
        chars.append(c);
        kinds.append('L');
      }
    }
    boolean[] wildcard = new boolean[kinds.length()];
    for (int i = 0; i < wildcard.length; i++) {
      wildcard[i] = kinds.charAt(i) == 'W';
    }
    return new LikePattern(chars.toString().toCharArray(), wildcard);
  }

  /** Whether {@code value} matches the whole pattern. */
  boolean matches(String value) {
    if (chars == null) {
      return true;
    }
    int n = value.length();
    int m = chars.length;
    int i = 0;
    int p = 0;
    int star = -1;
    int resume = 0;
    while (i < n) {
      if (p < m && !isRun(p) && (isOne(p) || same(chars[p], value.charAt(i)))) {
        i++;
        p++;
      } else if (p < m && isRun(p)) {
        star = p++;
        resume = i;
      } else if (star >= 0) {
        p = star + 1;
        i = ++resume;
      } else {
        return false;
      }
    }
    while (p < m && isRun(p)) {
      p++;
    }
    return p == m;
  }

  private boolean isRun(int p) {
    return wildcard[p] && chars[p] == ANY_RUN;
  }

  private boolean isOne(int p) {
    return wildcard[p] && chars[p] == ANY_ONE;
  }

  private static boolean same(char a, char b) {
    return a == b || Character.toUpperCase(a) == Character.toUpperCase(b)
        || Character.toLowerCase(a) == Character.toLowerCase(b);
  }
}
