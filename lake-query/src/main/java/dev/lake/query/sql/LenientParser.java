package dev.lake.query.sql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Calcite's parser with the words users type as names accepted as names. Calcite reserves many words that PostgreSQL
 * and DuckDB do not ({@code one}, {@code dec}, {@code running}, {@code value}, {@code year}, ...), so
 * {@code SELECT 1 AS one} fails there. When a statement fails to parse exactly at such a word, in a place where the
 * parser expected a name, the word is read as a quoted name and the statement parsed again (bounded). Words that
 * PostgreSQL reserves stay reserved ({@link #RESERVED}). Nothing else changes: a statement that parses is parsed as
 * before, and a name is only ever a name, so the read-only surface ({@link SqlSurfacePolicy}) is not widened.
 *
 * <p>A statement that still fails is answered {@code syntax error at line L, column C near "TOKEN"}, with the position
 * in the text the client sent.
 */
final class LenientParser {
  /** How many words one statement may have read as names. */
  private static final int MAX_NAMES = 64;
  private static final int MAX_TOKEN = 40;

  /** PostgreSQL's reserved key words (also those that "can be function or type"), plus words lake's SQL needs. */
  static final Set<String> RESERVED = Set.of("ALL", "ANALYSE", "ANALYZE", "AND", "ANY", "ARRAY", "AS", "ASC",
      "ASYMMETRIC", "BOTH", "CASE", "CAST", "CHECK", "COLLATE", "COLUMN", "CONSTRAINT", "CREATE", "CURRENT_CATALOG",
      "CURRENT_DATE", "CURRENT_ROLE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "CURRENT_USER", "DEFAULT", "DEFERRABLE",
      "DESC", "DISTINCT", "DO", "ELSE", "END", "EXCEPT", "FALSE", "FETCH", "FOR", "FOREIGN", "FROM", "GRANT", "GROUP",
      "HAVING", "IN", "INITIALLY", "INTERSECT", "INTO", "LATERAL", "LEADING", "LIMIT", "LOCALTIME", "LOCALTIMESTAMP",
      "NOT", "NULL", "OFFSET", "ON", "ONLY", "OR", "ORDER", "PLACING", "PRIMARY", "REFERENCES", "RETURNING", "SELECT",
      "SESSION_USER", "SOME", "SYMMETRIC", "SYSTEM_USER", "TABLE", "THEN", "TO", "TRAILING", "TRUE", "UNION",
      "UNIQUE", "USER", "USING", "VARIADIC", "WHEN", "WHERE", "WINDOW", "WITH", "AUTHORIZATION", "BINARY",
      "COLLATION", "CONCURRENTLY", "CROSS", "CURRENT_SCHEMA", "FREEZE", "FULL", "ILIKE", "INNER", "IS", "ISNULL",
      "JOIN", "LEFT", "LIKE", "NATURAL", "NOTNULL", "OUTER", "OVERLAPS", "RIGHT", "SIMILAR", "TABLESAMPLE",
      "VERBOSE", "VALUES", "EXISTS", "BETWEEN", "OVER", "PARTITION", "EXPLAIN", "UNNEST", "MINUS", "ESCAPE",
      "INTERVAL", "MATCH_RECOGNIZE", "QUALIFY");

  private LenientParser() {}

  /** A syntax error, positioned in the client's text. */
  static final class SyntaxError extends Exception {
    private static final long serialVersionUID = 1L;

    SyntaxError(String message, SqlParseException cause) {
      super(message, cause);
    }
  }

  static SqlNode parse(String sql, SqlParser.Config config) throws SyntaxError, SqlParseException {
    String text = sql;
    List<int[]> quoted = new ArrayList<>(); // {offset, length} of each word quoted, in the text after quoting it
    SqlParseException reported = null;
    String reportedText = sql;
    int reportedOffset = -1;
    while (true) {
      SqlParseException e;
      try {
        return SqlParser.create(text, config).parseStmt();
      } catch (SqlParseException failure) {
        e = failure;
      }
      SqlParserPos pos = e.getPos();
      int at = pos == null ? -1 : offset(text, pos.getLineNum(), pos.getColumnNum());
      int original = at < 0 ? -1 : original(quoted, at);
      if (reported != null && original <= reportedOffset) {
        break; // reading the last word as a name did not get the parser further: report the error before it
      }
      reported = e;
      reportedText = text;
      reportedOffset = original;
      int[] word = at < 0 || quoted.size() >= MAX_NAMES ? null : candidate(text, at, e);
      if (word == null) {
        break;
      }
      text = text.substring(0, word[0]) + '"' + text.substring(word[0], word[0] + word[1]) + '"'
          + text.substring(word[0] + word[1]);
      quoted.add(word);
    }
    SqlParserPos pos = reported.getPos();
    if (pos == null || pos.getLineNum() <= 0 || reportedOffset < 0) {
      throw reported;
    }
    int[] lineColumn = lineColumn(sql, reportedOffset);
    String token = tokenAt(reportedText, offset(reportedText, pos.getLineNum(), pos.getColumnNum()));
    throw new SyntaxError("syntax error at line " + lineColumn[0] + ", column " + lineColumn[1]
        + (token == null ? " at the end of the statement" : " near \"" + token + "\""), reported);
  }

  /**
   * The word to read as a name: the one the parser stopped at (when it expected a name there or choked on that
   * word), the name after it when it stopped at a qualifying dot, else the word just before it (a keyword the parser
   * took as the start of something else); never a
   * reserved word or one already quoted.
   */
  private static int[] candidate(String text, int at, SqlParseException e) {
    String word = wordAt(text, at);
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (word != null && (expectsName(e.getExpectedTokenNames())
        || message.regionMatches(true, 0, "Encountered \"" + word, 0, word.length() + 12))) {
      return RESERVED.contains(word.toUpperCase(Locale.ROOT)) ? null : new int[] {at, word.length()};
    }
    if (at < text.length() && text.charAt(at) == '.') { // a qualified name: t.value
      String after = wordAt(text, at + 1);
      return after == null || RESERVED.contains(after.toUpperCase(Locale.ROOT)) ? null
          : new int[] {at + 1, after.length()};
    }
    int end = at;
    while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    int start = end;
    while (start > 0 && (Character.isLetterOrDigit(text.charAt(start - 1)) || text.charAt(start - 1) == '_')) {
      start--;
    }
    String before = start < end ? wordAt(text, start) : null;
    if (before == null || before.length() != end - start || RESERVED.contains(before.toUpperCase(Locale.ROOT))) {
      return null;
    }
    return new int[] {start, before.length()};
  }

  /** The offset in the client's text of {@code offset} in the text with {@code quoted} words quoted. */
  private static int original(List<int[]> quoted, int offset) {
    int at = offset;
    for (int i = quoted.size() - 1; i >= 0; i--) {
      int[] q = quoted.get(i);
      if (at > q[0] + q[1]) {
        at -= 2;
      } else if (at > q[0]) {
        at -= 1;
      }
    }
    return at;
  }

  /** The 1-based line and column of {@code offset} in {@code text}. */
  private static int[] lineColumn(String text, int offset) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new int[] {line, offset - lineStart + 1};
  }

  private static boolean expectsName(Collection<String> expected) {
    if (expected == null) {
      return false;
    }
    for (String token : expected) {
      if (token.contains("IDENTIFIER")) {
        return true;
      }
    }
    return false;
  }

  /** The offset of 1-based (line, column) in {@code text}, or -1 past its end. */
  private static int offset(String text, int line, int column) {
    int at = 0;
    for (int l = 1; l < line; l++) {
      int newline = text.indexOf('\n', at);
      if (newline < 0) {
        return -1;
      }
      at = newline + 1;
    }
    int offset = at + column - 1;
    return column >= 1 && offset <= text.length() ? offset : -1;
  }

  /** The unquoted word (letters, digits, underscores; not starting with a digit) starting at {@code start}. */
  private static String wordAt(String text, int start) {
    if (start < 0 || start >= text.length() || !Character.isLetter(text.charAt(start))) {
      return null;
    }
    if (start > 0 && (text.charAt(start - 1) == '"' || Character.isLetterOrDigit(text.charAt(start - 1)))) {
      return null;
    }
    int end = start;
    while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
      end++;
    }
    return text.substring(start, end);
  }

  /** The token at {@code start} as the client wrote it (shortened), or null at the end of the statement. */
  private static String tokenAt(String text, int start) {
    if (start < 0 || start >= text.length()) {
      return null;
    }
    int end = start;
    char first = text.charAt(start);
    if (Character.isLetterOrDigit(first) || first == '_') {
      while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
        end++;
      }
    } else if (first == '\'' || first == '"') {
      end = text.indexOf(first, start + 1);
      end = end < 0 ? text.length() : end + 1;
    } else {
      end = start + 1;
      while (end < text.length() && "<>=!|:".indexOf(text.charAt(end)) >= 0 && "<>=!|:".indexOf(first) >= 0) {
        end++;
      }
    }
    String token = text.substring(start, end);
    return Echo.of(token.length() > MAX_TOKEN ? token.substring(0, MAX_TOKEN) + "..." : token);
  }
}
