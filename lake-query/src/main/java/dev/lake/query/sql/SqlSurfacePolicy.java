package dev.lake.query.sql;

import dev.lake.query.QueryRejectedException;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.SqlSnapshot;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * lake's public SQL surface is read-only: SELECT, EXPLAIN (PLAN FOR), WITH, VALUES, UNION/INTERSECT/EXCEPT and
 * ORDER BY. Everything else is rejected with a {@link QueryRejectedException} naming the statement kind. Inside an
 * accepted statement, table functions in FROM ({@code TABLE(f(...))}, external sources) are rejected too; time
 * travel ({@code FOR SYSTEM_TIME AS OF TIMESTAMP '...'}) is accepted on a table name with a TIMESTAMP literal.
 */
public final class SqlSurfacePolicy {
  static final String READ_ONLY =
      "lake's SQL surface is read-only (SELECT, EXPLAIN, WITH, VALUES, set operations)";

  private static final Set<SqlKind> QUERY_KINDS = Set.of(SqlKind.SELECT, SqlKind.ORDER_BY, SqlKind.WITH,
      SqlKind.VALUES, SqlKind.UNION, SqlKind.INTERSECT, SqlKind.EXCEPT);

  /** Statement keywords named when a statement does not even parse (e.g. GRANT, COPY). */
  private static final Set<String> STATEMENT_KEYWORDS = Set.of("INSERT", "UPSERT", "UPDATE", "DELETE", "MERGE",
      "CREATE", "DROP", "ALTER", "TRUNCATE", "SET", "RESET", "GRANT", "REVOKE", "COPY", "VACUUM", "ANALYZE", "CALL",
      "USE", "BEGIN", "START", "COMMIT", "ROLLBACK", "SAVEPOINT", "LOAD", "ATTACH", "DETACH", "INSTALL", "PRAGMA",
      "REPLACE", "RENAME", "COMMENT", "REFRESH", "OPTIMIZE", "SHOW", "DESCRIBE", "DESC", "LOCK", "UNLOCK", "KILL",
      "EXECUTE", "PREPARE", "DEALLOCATE", "EXPORT", "IMPORT", "UNLOAD", "RESTORE", "CHECKPOINT", "DISCARD",
      "LISTEN", "NOTIFY", "REINDEX", "CLUSTER");
  private static final Set<String> OBJECT_KEYWORDS = Set.of("TABLE", "VIEW", "INDEX", "SCHEMA", "DATABASE",
      "FUNCTION", "TYPE", "SEQUENCE", "USER", "ROLE", "MATERIALIZED", "CATALOG", "EXTERNAL", "TEMPORARY");

  private SqlSurfacePolicy() {}

  /** Accepts a parsed read-only statement, or throws {@link QueryRejectedException} naming what is not allowed. */
  public static void check(SqlNode statement) {
    SqlKind kind = statement.getKind();
    if (kind == SqlKind.EXPLAIN) {
      check(((SqlExplain) statement).getExplicandum());
      return;
    }
    if (!QUERY_KINDS.contains(kind)) {
      throw new QueryRejectedException(kindName(statement) + " statements are not allowed: " + READ_ONLY);
    }
    statement.accept(new SourceChecker());
  }

  /** The rejection for a statement that did not parse but starts with a statement keyword lake does not allow. */
  public static QueryRejectedException disallowedKeyword(String sql) {
    String[] words = leadingWords(sql, 2);
    if (words.length == 0 || !STATEMENT_KEYWORDS.contains(words[0])) {
      return null;
    }
    String name = words[0];
    if (words.length > 1 && (name.equals("CREATE") || name.equals("DROP") || name.equals("ALTER"))
        && OBJECT_KEYWORDS.contains(words[1])) {
      name = name + " " + words[1];
    }
    return new QueryRejectedException(name + " statements are not allowed: " + READ_ONLY);
  }

  static String kindName(SqlNode statement) {
    if (statement instanceof SqlInsert && ((SqlInsert) statement).isUpsert()) {
      return "UPSERT";
    }
    if (statement instanceof SqlSetOption) {
      SqlSetOption option = (SqlSetOption) statement;
      String verb = option.getValue() == null ? "RESET" : "SET";
      return option.getScope() == null ? verb : "ALTER " + option.getScope().toUpperCase(Locale.ROOT) + " " + verb;
    }
    return statement.getKind().name().replace('_', ' ');
  }

  /** Up to {@code count} upper-cased words at the start of {@code sql}, skipping comments and parentheses. */
  private static String[] leadingWords(String sql, int count) {
    String[] words = new String[count];
    int found = 0;
    int i = 0;
    int n = sql.length();
    while (i < n && found < count) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (Character.isLetter(c)) {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
          i++;
        }
        words[found++] = sql.substring(start, i).toUpperCase(Locale.ROOT);
      } else {
        break;
      }
    }
    String[] result = new String[found];
    System.arraycopy(words, 0, result, 0, found);
    return result;
  }

  /** Rejects sources other than registered tables inside an accepted query. */
  private static final class SourceChecker extends SqlBasicVisitor<Void> {
    @Override
    public Void visit(SqlCall call) {
      switch (call.getKind()) {
        case COLLECTION_TABLE:
          throw new QueryRejectedException("table functions in FROM are not allowed: lake reads only its"
              + " registered tables (no external sources); name a table instead");
        case SNAPSHOT:
          SystemTime.instant((SqlSnapshot) call);
          return super.visit(call);
        case EXTEND:
          throw new QueryRejectedException("extended columns on a table reference are not allowed:"
              + " lake tables have fixed schemas; select the stored columns");
        default:
          return super.visit(call);
      }
    }
  }
}
