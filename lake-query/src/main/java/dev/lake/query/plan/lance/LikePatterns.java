package dev.lake.query.plan.lance;

/**
 * Rewrites a SQL LIKE pattern (no escape character, or the one named by ESCAPE) into the form Lance's LIKE reads,
 * where backslash is always the escape character.
 */
final class LikePatterns {
  private LikePatterns() {}

  /**
   * The backslash-escaped pattern matching exactly what {@code pattern} matches under SQL rules, or null when the
   * pattern is malformed (an escape character followed by anything but %, _ or itself); Calcite then reports it.
   */
  static String toBackslashEscaped(String pattern, Character escape) {
    StringBuilder out = new StringBuilder(pattern.length() + 8);
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (escape != null && c == escape) {
        if (i + 1 >= pattern.length()) {
          return null;
        }
        char next = pattern.charAt(++i);
        if (next != '%' && next != '_' && next != escape) {
          return null;
        }
        appendLiteral(out, next);
      } else if (c == '%' || c == '_') {
        out.append(c);
      } else {
        appendLiteral(out, c);
      }
    }
    return out.toString();
  }

  private static void appendLiteral(StringBuilder out, char c) {
    if (c == '%' || c == '_' || c == '\\') {
      out.append('\\');
    }
    out.append(c);
  }

  /**
   * The backslash-escaped pattern of a LIKE whose pattern (operand 1) and escape (operand 2, if any) are literals, or
   * null when they are not, the escape is not one character, or the pattern cannot be rewritten.
   */
  static String literalPattern(org.apache.calcite.rex.RexCall call) {
    java.util.List<org.apache.calcite.rex.RexNode> operands = call.getOperands();
    if (!(operands.get(1) instanceof org.apache.calcite.rex.RexLiteral pattern)) {
      return null;
    }
    Character escape = null;
    if (operands.size() > 2) {
      if (!(operands.get(2) instanceof org.apache.calcite.rex.RexLiteral literal)) {
        return null;
      }
      String text = literal.getValueAs(String.class);
      if (text == null || text.length() != 1) {
        return null;
      }
      escape = text.charAt(0);
    }
    String value = pattern.getValueAs(String.class);
    return value == null ? null : toBackslashEscaped(value, escape);
  }
}
