package dev.lake.query;

import dev.lake.query.model.QueryDataException;
import dev.lake.query.sql.Echo;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.runtime.CalciteException;

/**
 * Tells a runtime data error of a statement (raised by the code that evaluates SQL: Calcite's runtime functions and
 * the classes it generates for a statement) from a bug, and words it in SQL. An exception counts as a data error by
 * its type and by <em>where</em> it was raised (the first frame outside the JDK is SQL evaluation code, lake's LIKE
 * and SIMILAR TO among it), never by its message alone; the exceptions are: a scalar subquery's second row (Calcite's
 * generated SINGLE_VALUE aggregate throws an IllegalStateException, told by its message) and OVERLAY positions outside
 * the string (an IndexOutOfBoundsException in Calcite's OVERLAY). The same exception type raised anywhere else in
 * lake is a bug (INTERNAL). docs/api.md ("Errors") lists what the client sees.
 */
final class DataErrors {
  /** The classes of lake's LIKE and SIMILAR TO ({@code LikeMatcher}, {@code LikeFunctions}). */
  private static final String LAKE_LIKE = "dev.lake.query.guard.Like";
  /** Calcite's runtime conversions and the SQL type each one casts to. */
  private static final Map<String, String> CASTS = Map.of("toLong", "BIGINT", "toInt", "INTEGER", "toShort",
      "SMALLINT", "toByte", "TINYINT", "toDouble", "DOUBLE", "toFloat", "REAL", "toBigDecimal", "DECIMAL",
      "toBoolean", "BOOLEAN");

  /** How the generated code of Calcite's SINGLE_VALUE aggregate (a scalar subquery) refuses a second row. */
  private static final String SINGLE_VALUE = "more than one value in agg SINGLE_VALUE";
  private static final String OVERLAY = "OVERLAY's FROM and FOR are outside the string: FROM must be at least 1, FOR"
      + " (by default the replacement's length) at least 0, and FROM + FOR - 1 at most the string's length";

  private DataErrors() {}

  /** The data error {@code failure} is (it may arrive wrapped in the initializer error of generated code). */
  static Optional<QueryDataException> of(Throwable failure) {
    for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof ExceptionInInitializerError) {
        continue;
      }
      if (c instanceof IllegalStateException && raisedEvaluatingSql(c) && String.valueOf(c.getMessage())
          .startsWith(SINGLE_VALUE)) {
        return Optional.of(new QueryDataException(
            "more than one row returned by a subquery used as an expression", c));
      }
      if (c instanceof IndexOutOfBoundsException
          && raisedIn(c, "org.apache.calcite.runtime.SqlFunctions", "overlay")) {
        return Optional.of(new QueryDataException(OVERLAY, c));
      }
      if (!(c instanceof ArithmeticException || c instanceof IllegalArgumentException
          || c instanceof CalciteException) || !raisedEvaluatingSql(c)) {
        return Optional.empty();
      }
      return Optional.of(new QueryDataException(message(c), c));
    }
    return Optional.empty();
  }

  private static String message(Throwable c) {
    String detail = c.getMessage() == null ? "" : c.getMessage();
    if (c instanceof ArithmeticException) {
      String lower = detail.toLowerCase(Locale.ROOT);
      if (lower.contains("zero") || lower.contains("division undefined")) {
        return "division by zero";
      }
      if (lower.contains("overflow")) {
        return "integer overflow: the result does not fit its type; CAST an operand to a wider type (DECIMAL)";
      }
      return "arithmetic error: the result cannot be represented in its type";
    }
    if (c instanceof NumberFormatException) {
      String type = castTarget(c);
      String value = quotedInput(detail);
      return value == null ? "cannot cast a string to " + type + ": it is not a valid " + type + " literal"
          : "cannot cast '" + value + "' to " + type;
    }
    if (firstFrame(c).startsWith(LAKE_LIKE)) {
      return Echo.of(detail); // lake's LIKE and SIMILAR TO word their refusals in SQL
    }
    return "the statement failed on its data: " + Echo.of(detail);
  }

  /** The class of the first frame outside the JDK, or "". */
  private static String firstFrame(Throwable c) {
    for (StackTraceElement frame : c.getStackTrace()) {
      String cls = frame.getClassName();
      if (!(cls.startsWith("java.") || cls.startsWith("jdk.") || cls.startsWith("sun."))) {
        return cls;
      }
    }
    return "";
  }

  /** Whether the first frame outside the JDK is {@code method} of {@code cls}. */
  private static boolean raisedIn(Throwable c, String cls, String method) {
    for (StackTraceElement frame : c.getStackTrace()) {
      if (!frame.getClassName().startsWith("java.")) {
        return frame.getClassName().equals(cls) && frame.getMethodName().equals(method);
      }
    }
    return false;
  }

  /** Whether the first frame outside the JDK belongs to Calcite's runtime or to a class generated for a statement. */
  static boolean raisedEvaluatingSql(Throwable c) {
    String cls = firstFrame(c);
    return cls.startsWith("org.apache.calcite.runtime.") || cls.startsWith("org.apache.calcite.util.")
        || cls.startsWith("org.apache.calcite.linq4j.") || cls.startsWith("org.apache.calcite.avatica.util.")
        || cls.startsWith(LAKE_LIKE) // lake's LIKE and SIMILAR TO for the generated code
        || (!cls.isEmpty() && cls.indexOf('.') < 0); // Janino-compiled statement classes (Baz, Baz$1) have no package
  }

  private static String castTarget(Throwable c) {
    for (StackTraceElement frame : c.getStackTrace()) {
      if (frame.getClassName().startsWith("org.apache.calcite.runtime.")) {
        String type = CASTS.get(frame.getMethodName());
        if (type != null) {
          return type;
        }
      }
    }
    return "a number";
  }

  /** The value between the first pair of double quotes, as the JDK's number parsers quote their input. */
  private static String quotedInput(String detail) {
    int open = detail.indexOf('"');
    int close = open < 0 ? -1 : detail.lastIndexOf('"');
    if (close <= open) {
      return null;
    }
    String value = detail.substring(open + 1, close);
    return Echo.of(value.length() > 100 ? value.substring(0, 100) + "..." : value);
  }
}
