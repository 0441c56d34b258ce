package dev.lake.query.sql;

/**
 * Shortens user input quoted back in error messages and log lines, and escapes its control characters: gRPC refuses
 * oversized error trailers, so a message echoing a huge statement would reach the client as INTERNAL instead of the
 * real error; and a line break in client input must never forge a log line.
 */
public final class Echo {
  /** The longest piece of input an error message quotes. */
  public static final int MAX_ECHO = 200;

  private Echo() {}

  /** {@code text} itself when short, else its first {@value #MAX_ECHO} characters and how many were cut. */
  public static String of(String text) {
    if (text == null) {
      return "null";
    }
    if (text.length() <= MAX_ECHO) {
      return escaped(text);
    }
    return escaped(text.substring(0, MAX_ECHO)) + "... (" + (text.length() - MAX_ECHO) + " more characters)";
  }

  /**
   * {@code text} with control characters (line breaks among them) written as escapes (a line feed as backslash-n),
   * so client input quoted in a log line or a message can never start a line of its own.
   */
  public static String escaped(String text) {
    StringBuilder b = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
      if (control && b == null) {
        b = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (b == null) {
        continue;
      }
      if (!control) {
        b.append(c);
      } else if (c == '\n') {
        b.append("\\n");
      } else if (c == '\r') {
        b.append("\\r");
      } else if (c == '\t') {
        b.append("\\t");
      } else {
        b.append(String.format("\\u%04x", (int) c));
      }
    }
    return b == null ? text : b.toString();
  }
}
