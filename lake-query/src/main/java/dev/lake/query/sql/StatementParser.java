package dev.lake.query.sql;

import dev.lake.query.model.QueryRejectedException;
import java.util.regex.Pattern;
import org.apache.calcite.config.Lex;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.ddl.SqlDdlParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Parses one statement with lake's lexical rules and checks it against the {@link SqlSurfacePolicy}.
 *
 * <p>Lexical rules: double-quoted identifiers, unquoted identifiers keep their case, names match
 * case-insensitively ({@link Lex#MYSQL_ANSI}); LENIENT conformance. The DDL grammar is parsed too, only so that a
 * rejected CREATE/DROP/ALTER/TRUNCATE can be named. Words PostgreSQL does not reserve are accepted as names
 * ({@link LenientParser}); syntax errors say where: {@code syntax error at line 1, column 1 near "SELEC"}.
 */
public final class StatementParser {
  /** The parser configuration every lake statement is parsed with. */
  public static final SqlParser.Config CONFIG = SqlParser.config()
      .withLex(Lex.MYSQL_ANSI)
      .withConformance(SqlConformanceEnum.LENIENT)
      .withParserFactory(SqlDdlParserImpl.FACTORY)
      .withIdentifierMaxLength(1024);

  /** {@code SELECT ... INTO OUTFILE '...'} and the like (other engines' way of writing a file). */
  private static final Pattern INTO_FILE = Pattern.compile("\\bINTO\\s+(OUTFILE|DUMPFILE)\\b",
      Pattern.CASE_INSENSITIVE);

  private StatementParser() {}

  /**
   * The parsed, policy-checked statement, FOR SYSTEM_TIME AS OF rewritten into table references
   * ({@link SystemTime}).
   *
   * @throws QueryRejectedException for a syntax error, a statement lake does not allow, or nesting too deep
   */
  public static SqlNode parse(String sql) {
    return parse(sql, StatementLimits.defaults());
  }

  /** As {@link #parse(String)}, refusing a statement over {@code limits} before it is planned. */
  public static SqlNode parse(String sql, StatementLimits limits) {
    if (sql == null || sql.isBlank()) {
      throw new QueryRejectedException("the statement is empty: send one SELECT, EXPLAIN, WITH or VALUES statement");
    }
    limits.checkLength(sql);
    SqlNode statement;
    try {
      statement = LenientParser.parse(withoutTrailingSemicolon(sql), CONFIG);
    } catch (LenientParser.SyntaxError | SqlParseException e) {
      if (causedByStackOverflow(e)) {
        throw tooDeep();
      }
      QueryRejectedException disallowed = SqlSurfacePolicy.disallowedKeyword(sql);
      if (disallowed != null) {
        throw disallowed;
      }
      if (INTO_FILE.matcher(sql).find()) {
        throw new QueryRejectedException("SELECT ... INTO OUTFILE/DUMPFILE statements are not allowed: "
            + SqlSurfacePolicy.READ_ONLY + "; lake writes no files, it streams results to the client");
      }
      throw new QueryRejectedException(e instanceof LenientParser.SyntaxError ? e.getMessage()
          : "syntax error: " + firstLine(e.getMessage()), e);
    } catch (StackOverflowError e) {
      throw tooDeep();
    }
    limits.check(statement);
    try {
      statement = DoubleNegations.remove(statement);
      statement = InLists.asSets(statement);
      SqlSurfacePolicy.check(statement);
      LikeEscapes.check(statement);
      SubMillisecondSteps.check(statement);
      return SystemTime.rewrite(statement);
    } catch (StackOverflowError e) {
      throw tooDeep();
    }
  }

  /** The rejection for a statement whose nesting overflowed a stack while it was parsed, checked or planned. */
  public static QueryRejectedException tooDeep() {
    return new QueryRejectedException("the statement exceeds a limit: it is nested too deeply to be parsed or planned"
        + " (query.max-expression-depth); simplify it (fewer nested expressions or subqueries)");
  }

  private static boolean causedByStackOverflow(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof StackOverflowError) {
        return true;
      }
    }
    return false;
  }

  private static String withoutTrailingSemicolon(String sql) {
    String trimmed = sql.strip();
    return trimmed.endsWith(";") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unparseable statement";
    }
    int newline = message.indexOf('\n');
    return Echo.of(newline < 0 ? message : message.substring(0, newline).strip());
  }
}
