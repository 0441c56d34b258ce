package dev.lake.query.guard;

import java.lang.reflect.Method;
import java.util.regex.Pattern;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * LIKE and SIMILAR TO for Calcite's generated code (lake replaces Calcite's own, which translate the pattern into a
 * Java regex that backtracks exponentially on patterns like {@code '%a%a%a%a%a%a%a%b'}). LIKE runs on
 * {@link LikeMatcher} in linear time per pattern character. SIMILAR TO is a regular expression by definition: it runs
 * on Java's regex engine over a character sequence that counts the characters the engine reads and stops a match
 * that reads more than {@value #SIMILAR_READS_PER_CHAR} per input character (plus a constant): a pattern that
 * backtracks that much fails with an error instead of running for hours. One instance per compiled plan (Calcite
 * creates it); each caches its last pattern. Thread-safe.
 */
public final class LikeFunctions {
  static final long SIMILAR_READS_PER_CHAR = 10_000;
  private static final long SIMILAR_READS_BASE = 1_000_000;
  private static final SqlOperator LIKE = operator("LAKE_LIKE", "like");
  private static final SqlOperator LIKE_ESCAPE = operator("LAKE_LIKE", "likeEscape");
  private static final SqlOperator SIMILAR = operator("LAKE_SIMILAR", "similar");
  private static final SqlOperator SIMILAR_ESCAPE = operator("LAKE_SIMILAR", "similarEscape");
  private static final Method TO_REGEX = similarTranslation();

  private volatile LikeMatcher lastLike;
  private volatile CompiledSimilar lastSimilar;

  public LikeFunctions() {}

  /** The operator calling LIKE ({@code like}) or SIMILAR TO, with or without an escape operand. */
  public static SqlOperator operator(boolean like, boolean escape) {
    return like ? (escape ? LIKE_ESCAPE : LIKE) : (escape ? SIMILAR_ESCAPE : SIMILAR);
  }

  public Boolean like(String s, String pattern) {
    return likeEscape(s, pattern, null);
  }

  public Boolean likeEscape(String s, String pattern, String escape) {
    if (s == null || pattern == null) {
      return null;
    }
    LikeMatcher matcher = lastLike;
    if (matcher == null || !matcher.compiledFrom(pattern, escape)) {
      matcher = LikeMatcher.compile(pattern, escape);
      lastLike = matcher;
    }
    return matcher.matches(s);
  }

  public Boolean similar(String s, String pattern) {
    return similarEscape(s, pattern, null);
  }

  public Boolean similarEscape(String s, String pattern, String escape) {
    if (s == null || pattern == null) {
      return null;
    }
    CompiledSimilar compiled = lastSimilar;
    if (compiled == null || !compiled.pattern.equals(pattern) || !java.util.Objects.equals(compiled.escape, escape)) {
      compiled = new CompiledSimilar(pattern, escape, compileSimilar(pattern, escape));
      lastSimilar = compiled;
    }
    long budget = SIMILAR_READS_BASE + SIMILAR_READS_PER_CHAR * s.length();
    return compiled.regex.matcher(new CountedChars(s, 0, s.length(), new long[] {budget})).matches();
  }

  /**
   * The regex of a SIMILAR TO pattern; an escape that is not one character, or a pattern Calcite's translation or
   * Java's regex compiler refuses, fails with an {@link IllegalArgumentException} that names it (the client's error).
   */
  private static Pattern compileSimilar(String pattern, String escape) {
    if (escape != null && escape.length() != 1) {
      throw new IllegalArgumentException(LikeMatcher.invalidEscape("SIMILAR TO", escape));
    }
    try {
      return Pattern.compile(translate(pattern, escape));
    } catch (java.util.regex.PatternSyntaxException e) {
      throw invalidSimilar(pattern, e.getDescription(), e);
    }
  }

  private static IllegalArgumentException invalidSimilar(String pattern, String why, Throwable cause) {
    return new IllegalArgumentException("invalid SIMILAR TO pattern '" + LikeMatcher.shown(pattern) + "': " + why,
        cause);
  }

  private static String translate(String pattern, String escape) {
    try {
      return (String) TO_REGEX.invoke(null, pattern, escape);
    } catch (java.lang.reflect.InvocationTargetException e) {
      // the translation is a function of the pattern and escape alone: its failure is the pattern's
      throw invalidSimilar(pattern, String.valueOf(e.getCause().getMessage()), e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("SIMILAR TO is not available", e);
    }
  }

  private static Method similarTranslation() {
    try {
      Method m = org.apache.calcite.runtime.Like.class.getDeclaredMethod("sqlToRegexSimilar", String.class,
          CharSequence.class);
      m.setAccessible(true);
      return m;
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static SqlOperator operator(String name, String method) {
    ScalarFunction function = ScalarFunctionImpl.create(LikeFunctions.class, method);
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
        ReturnTypes.BOOLEAN_NULLABLE, InferTypes.FIRST_KNOWN, null, function);
  }

  private record CompiledSimilar(String pattern, String escape, Pattern regex) {}

  /** A string whose reads are counted against a shared budget; past it the match fails with an error. */
  private static final class CountedChars implements CharSequence {
    private final String s;
    private final int from;
    private final int to;
    private final long[] left;

    CountedChars(String s, int from, int to, long[] left) {
      this.s = s;
      this.from = from;
      this.to = to;
      this.left = left;
    }

    @Override
    public int length() {
      return to - from;
    }

    @Override
    public char charAt(int index) {
      if (--left[0] < 0) {
        throw new IllegalArgumentException("the SIMILAR TO pattern backtracks too much on a value of "
            + s.length() + " characters (more than " + SIMILAR_READS_PER_CHAR + " steps per character); simplify"
            + " the pattern (fewer nested or alternative repetitions) or use LIKE");
      }
      return s.charAt(from + index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new CountedChars(s, from + start, from + end, left);
    }

    @Override
    public String toString() {
      return s.substring(from, to);
    }
  }
}
