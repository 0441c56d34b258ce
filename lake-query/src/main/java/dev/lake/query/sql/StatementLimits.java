package dev.lake.query.sql;

import dev.lake.query.model.QueryRejectedException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * The documented limits of one statement (docs/api.md, keys in docs/config.md), checked before it is planned: its
 * length before it is parsed, then — in one iterative walk of the parse tree, which cannot overflow a stack — its
 * expression nesting depth, the size of each IN list, the number of joins, of set operations (UNION, INTERSECT,
 * EXCEPT), of parameters, and the length of each string or binary literal (a literal of hundreds of KB costs the
 * planner seconds for every copy it makes of it, and is repeated per row of a result: large values are bound as
 * parameters). A statement over a limit is refused with INVALID_ARGUMENT naming the limit and its key;
 * under the limits, validation and planning stay well inside the server's thread stacks.
 */
public record StatementLimits(int maxLength, int maxDepth, int maxInList, int maxJoins, int maxSetOperations,
    int maxParameters, int maxLiteralLength) {
  /** The keys, with their defaults. */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("query.max-statement-length", "1000000");
    keys.put("query.max-expression-depth", "128");
    keys.put("query.max-in-list", "10000");
    keys.put("query.max-joins", "32");
    keys.put("query.max-set-operations", "100");
    keys.put("query.max-parameters", "10000");
    keys.put("query.max-literal-length", "65536");
    KEYS = Collections.unmodifiableMap(keys);
  }

  public StatementLimits {
    positive("query.max-statement-length", maxLength);
    positive("query.max-expression-depth", maxDepth);
    positive("query.max-in-list", maxInList);
    positive("query.max-joins", maxJoins);
    positive("query.max-set-operations", maxSetOperations);
    positive("query.max-parameters", maxParameters);
    positive("query.max-literal-length", maxLiteralLength);
    if (maxDepth > 1_000) {
      throw new IllegalArgumentException("query.max-expression-depth must be at most 1000 (deeper statements "
          + "could overflow the planner's stack), was " + maxDepth);
    }
  }

  private static void positive(String key, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(key + " must be at least 1, was " + value);
    }
  }

  public static StatementLimits defaults() {
    return fromKeys(Map.of());
  }

  /** Reads {@link #KEYS} from configuration values (missing keys take their defaults). */
  public static StatementLimits fromKeys(Map<String, String> values) {
    Map<String, String> v = new LinkedHashMap<>(KEYS);
    values.forEach((k, value) -> {
      if (KEYS.containsKey(k) && value != null) {
        v.put(k, value);
      }
    });
    return new StatementLimits(integer(v, "query.max-statement-length"), integer(v, "query.max-expression-depth"),
        integer(v, "query.max-in-list"), integer(v, "query.max-joins"), integer(v, "query.max-set-operations"),
        integer(v, "query.max-parameters"), integer(v, "query.max-literal-length"));
  }

  private static int integer(Map<String, String> v, String key) {
    String text = v.get(key).strip().replace("_", "");
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " = '" + text + "' is not an integer");
    }
  }

  /** Refuses a statement longer than {@link #maxLength} characters, before anything parses it. */
  public void checkLength(String sql) {
    if (sql.length() > maxLength) {
      throw refused("the statement has " + sql.length() + " characters; the limit is " + maxLength
          + " (query.max-statement-length)");
    }
  }

  /** Refuses a parsed statement over a limit; walks the tree iteratively. */
  public void check(SqlNode statement) {
    Deque<SqlNode> nodes = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    nodes.push(statement);
    depths.push(1);
    int joins = 0;
    int setOperations = 0;
    int parameters = 0;
    while (!nodes.isEmpty()) {
      SqlNode node = nodes.pop();
      int depth = depths.pop();
      if (depth > maxDepth) {
        throw refused("its expressions are nested more than " + maxDepth + " levels deep (query.max-expression-depth)"
            + "; simplify the statement");
      }
      if (node instanceof org.apache.calcite.sql.SqlLiteral literal) {
        literal(literal);
      }
      if (node instanceof SqlDynamicParam && ++parameters > maxParameters) {
        throw refused("it has more than " + maxParameters + " parameters (query.max-parameters)");
      }
      if (node instanceof SqlNodeList list) {
        for (SqlNode child : list) {
          if (child != null) {
            nodes.push(child);
            depths.push(depth + 1);
          }
        }
        continue;
      }
      if (node instanceof org.apache.calcite.sql.SqlIdentifier id && id.isSimple() && !id.isComponentQuoted(0)
          && SqlSurfacePolicy.SESSION_FUNCTIONS.contains(id.getSimple().toUpperCase(java.util.Locale.ROOT))) {
        // unquoted USER, CURRENT_USER, ... are the standard's session functions (quote a column of that name)
        throw new QueryRejectedException(id.getSimple().toUpperCase(java.util.Locale.ROOT) + " is not supported: "
            + "lake's SQL does not expose the session's user, role or path; a column of that name must be quoted");
      }
      if (!(node instanceof SqlCall call)) {
        continue;
      }
      SqlKind kind = call.getKind();
      if (call.getOperator() instanceof org.apache.calcite.sql.SqlFunction f
          && SqlSurfacePolicy.SESSION_FUNCTIONS.contains(f.getName().toUpperCase(java.util.Locale.ROOT))) {
        throw new QueryRejectedException("function " + f.getName().toUpperCase(java.util.Locale.ROOT)
            + " is not supported: lake's SQL does not expose the session's user, role or path (the caller is known "
            + "from its credentials; catalog and schema are 'lake' and 'main')");
      }
      if (call instanceof org.apache.calcite.sql.SqlSelect select) {
        rowCount("OFFSET", select.getOffset());
        rowCount("LIMIT", select.getFetch());
      } else if (call instanceof org.apache.calcite.sql.SqlOrderBy orderBy) {
        rowCount("OFFSET", orderBy.offset);
        rowCount("LIMIT", orderBy.fetch);
      }
      if (kind == SqlKind.JOIN && ++joins > maxJoins) {
        throw refused("it joins more than " + maxJoins + " times (query.max-joins)");
      }
      if ((kind == SqlKind.UNION || kind == SqlKind.INTERSECT || kind == SqlKind.EXCEPT)
          && ++setOperations > maxSetOperations) {
        throw refused("it has more than " + maxSetOperations + " UNION, INTERSECT or EXCEPT operations "
            + "(query.max-set-operations)");
      }
      if ((kind == SqlKind.IN || kind == SqlKind.NOT_IN) && call.operandCount() > 1
          && call.operand(1) instanceof SqlNodeList in && in.size() > maxInList) {
        throw refused("an IN list has " + in.size() + " values; the limit is " + maxInList + " (query.max-in-list)");
      }
      for (SqlNode child : call.getOperandList()) {
        if (child != null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }

  /** Refuses a string literal of more than {@link #maxLiteralLength} characters, a binary one of more bytes. */
  private void literal(org.apache.calcite.sql.SqlLiteral literal) {
    long length;
    if (literal instanceof org.apache.calcite.sql.SqlCharStringLiteral text) {
      length = text.getValueAs(org.apache.calcite.util.NlsString.class).getValue().length();
    } else if (literal instanceof org.apache.calcite.sql.SqlBinaryStringLiteral binary) {
      length = binary.getValueAs(org.apache.calcite.util.BitString.class).getBitCount() / 8;
    } else {
      return;
    }
    if (length > maxLiteralLength) {
      throw refused("a " + (literal instanceof org.apache.calcite.sql.SqlCharStringLiteral ? "string" : "binary")
          + " literal has " + length + (literal instanceof org.apache.calcite.sql.SqlCharStringLiteral
              ? " characters" : " bytes") + "; the limit is " + maxLiteralLength
          + " (query.max-literal-length): bind large values as parameters");
    }
  }

  /** LIMIT and OFFSET are row counts lake's row runtime holds in an int: larger ones are refused, not mis-run. */
  private static void rowCount(String clause, SqlNode value) {
    if (value instanceof org.apache.calcite.sql.SqlNumericLiteral n && n.isExact()
        && n.getValueAs(java.math.BigDecimal.class).compareTo(java.math.BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
      throw refused(clause + " " + n.toValue() + " is above the largest row count lake supports there ("
          + Integer.MAX_VALUE + "); leave the LIMIT out to read every row");
    }
  }

  private static QueryRejectedException refused(String why) {
    return new QueryRejectedException("the statement exceeds a limit: " + why);
  }
}
