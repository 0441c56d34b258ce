package dev.lake.query.sql;

import dev.lake.query.model.QueryRejectedException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.SqlSnapshot;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * lake's public SQL surface is read-only: SELECT, EXPLAIN (PLAN FOR), WITH, VALUES, UNION/INTERSECT/EXCEPT and
 * ORDER BY. Everything else is rejected with a {@link QueryRejectedException} naming the statement kind. Inside an
 * accepted statement, whatever could reach a storage location or an external source is rejected too, naming what
 * was refused: table functions in FROM ({@code TABLE(f(...))}), functions that read files, URLs or other databases
 * ({@code read_parquet}, {@code pg_read_file}, {@code dblink}, ... — {@link #EXTERNAL_FUNCTIONS}), and a table
 * reference that names a location ({@code "s3://bucket/x"}, {@code "/data/t"}, {@code "file:t"}) rather than a
 * table. Time travel ({@code FOR SYSTEM_TIME AS OF TIMESTAMP '...'}) is accepted on a table name with a TIMESTAMP
 * literal; {@code "t@v42"} is a table reference, never a path.
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
  /**
   * Functions other engines offer to read files, object stores, URLs or other databases (lake has none of them;
   * naming one is refused as what it is, not as an unknown function).
   */
  /** Functions that would answer the session's identity, which the SQL runtime does not hold: refused clearly. */
  static final Set<String> SESSION_FUNCTIONS = Set.of("USER", "CURRENT_USER", "SESSION_USER", "SYSTEM_USER",
      "CURRENT_ROLE", "CURRENT_PATH", "CURRENT_CATALOG", "CURRENT_SCHEMA");
  static final Set<String> EXTERNAL_FUNCTIONS = Set.of("READ_PARQUET", "PARQUET_SCAN", "PARQUET_METADATA",
      "PARQUET_SCHEMA", "READ_CSV", "READ_CSV_AUTO", "CSV_SCAN", "READ_JSON", "READ_JSON_AUTO", "READ_NDJSON",
      "READ_NDJSON_AUTO", "JSON_SCAN", "READ_TEXT", "READ_BLOB", "READ_FILE", "READ_FILES", "READ_XLSX", "READ_ARROW",
      "READ_IPC", "READ_LANCE", "LANCE_SCAN", "ICEBERG_SCAN", "ICEBERG_METADATA", "DELTA_SCAN", "GLOB", "FILE",
      "FILES", "URL", "S3", "S3CLUSTER", "GCS", "AZURE_BLOB_STORAGE", "HDFS", "HTTP_GET", "HTTP_POST", "LOAD_FILE",
      "FILE_READ", "PG_READ_FILE", "PG_READ_BINARY_FILE", "PG_LS_DIR", "PG_STAT_FILE", "LO_IMPORT", "LO_EXPORT",
      "OPENROWSET", "OPENDATASOURCE", "OPENQUERY", "OPENJSON", "DBLINK", "REMOTE", "REMOTE_SECURE", "MYSQL",
      "POSTGRESQL", "SQLITE_SCAN", "POSTGRES_SCAN", "MYSQL_SCAN", "JDBC", "ODBC", "EXTERNAL_QUERY", "READ_SQL",
      "SYSTEM", "SHELL", "EXEC", "XP_CMDSHELL", "COPY_FROM", "LOAD_EXTENSION", "EXTERNAL_TABLE");

  /** A URI scheme at the start of a name ({@code s3:}, {@code file:}, {@code https:}, {@code C:}). */
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.\\-]*:.*", Pattern.DOTALL);

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

  /** True when a name part would point at a storage location rather than name a table. */
  static boolean namesLocation(String part) {
    return part.indexOf('/') >= 0 || part.indexOf('\\') >= 0 || SCHEME.matcher(part).matches()
        || part.startsWith("~") || part.equals("..") || part.equals(".");
  }

  private static void checkTableReference(SqlNode from) {
    if (from == null) {
      return;
    }
    switch (from.getKind()) {
      case IDENTIFIER:
        for (String part : ((SqlIdentifier) from).names) {
          if (namesLocation(part)) {
            throw new QueryRejectedException("'" + Echo.of(part) + "' is not a table name: naming a storage "
                + "location is not allowed; lake reads only its registered tables, by name (time travel: \"t@v42\" or FOR SYSTEM_TIME"
                + " AS OF); table data lives under the configured data root");
          }
        }
        return;
      case AS:
      case SNAPSHOT:
      case EXPLICIT_TABLE:
      case TABLESAMPLE:
        checkTableReference(((SqlCall) from).operand(0));
        return;
      case JOIN:
        checkTableReference(((SqlJoin) from).getLeft());
        checkTableReference(((SqlJoin) from).getRight());
        return;
      default:
        // subqueries, VALUES, UNNEST: their own parts are visited
    }
  }

  private static void checkFunction(SqlCall call) {
    if (!(call.getOperator() instanceof SqlFunction)) {
      return;
    }
    SqlFunction function = (SqlFunction) call.getOperator();
    SqlIdentifier id = function.getSqlIdentifier();
    String name = id != null && !id.names.isEmpty() ? id.names.get(id.names.size() - 1) : function.getName();
    if (name != null && SESSION_FUNCTIONS.contains(name.toUpperCase(Locale.ROOT))) {
      throw new QueryRejectedException("function " + name.toUpperCase(Locale.ROOT) + " is not supported: lake's SQL "
          + "does not expose the session's user, role or path (the caller is known from its credentials; catalog and "
          + "schema are 'lake' and 'main')");
    }
    if (name != null && EXTERNAL_FUNCTIONS.contains(name.toUpperCase(Locale.ROOT))) {
      throw new QueryRejectedException("function " + Echo.of(name.toUpperCase(Locale.ROOT)) + " is not allowed: it"
          + " would read a file, a storage location or an external source; lake reads only its registered tables");
    }
  }

  /** Rejects sources other than registered tables inside an accepted query. */
  private static final class SourceChecker extends SqlBasicVisitor<Void> {
    @Override
    public Void visit(SqlCall call) {
      if (call instanceof SqlSelect) {
        checkTableReference(((SqlSelect) call).getFrom());
      }
      checkFunction(call);
      switch (call.getKind()) {
        case EXPLICIT_TABLE:
          checkTableReference(call);
          return super.visit(call);
        case COLLECTION_TABLE:
          for (SqlNode operand : call.getOperandList()) {
            if (operand instanceof SqlCall) {
              checkFunction((SqlCall) operand);
            }
          }
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
