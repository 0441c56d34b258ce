package dev.lake.query.sql;

/**
 * Shortens user input quoted back in error messages: gRPC refuses oversized error trailers, so a message echoing a
 * huge statement would reach the client as INTERNAL instead of the real error (facts.md).
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
      return text;
    }
    return text.substring(0, MAX_ECHO) + "... (" + (text.length() - MAX_ECHO) + " more characters)";
  }
}
