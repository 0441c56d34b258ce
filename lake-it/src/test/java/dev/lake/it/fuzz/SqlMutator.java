package dev.lake.it.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Grammar-aware SQL for the fuzzer: statements of every kind lake refuses or runs (over the fuzzer's sentinel table
 * {@code fuzz_t(id BIGINT NOT NULL, name VARCHAR)}), nested deeply, with huge and unicode literals, then mutated at
 * the token level (deleted, repeated, swapped, truncated spans).
 */
final class SqlMutator {
  static final String TABLE = "fuzz_t";
  private static final String[] EXPRESSIONS = {"id", "name", "1", "-9223372036854775808", "9223372036854775807",
      "99999999999999999999999999999999999999", "1e308", "0.1", "'x'", "''", "NULL", "TRUE", "DATE '2026-01-01'",
      "TIMESTAMP '2026-01-01 00:00:00'", "'\u00e9\u4e2d\ud83d\ude00'", "CAST('abc' AS BIGINT)", "1 / 0", "id / (id - id)",
      "MOD(id, 0)", "LN(0)", "SQRT(-1)", "CAST(name AS INTEGER)", "CURRENT_USER", "CURRENT_TIMESTAMP", "SESSION_USER",
      "USER", "CURRENT_DATE", "UPPER(name)", "SUBSTRING(name FROM 2 FOR 3)", "CHAR_LENGTH(name)", "ABS(id)",
      "CASE WHEN id > 1 THEN 'a' ELSE 'b' END", "COALESCE(name, 'n')", "CAST(id AS DECIMAL(38, 10))",
      "CAST(1e40 AS BIGINT)", "POWER(10, 400)", "EXP(1000)", "name LIKE '%a%a%a%b'", "id IN (1, 2, 3)",
      "id BETWEEN 1 AND 2", "(SELECT MAX(id) FROM fuzz_t)", "ARRAY[1, 2]", "MAP['a', 1]", "?", "X'00ff'",
      "CAST('2026-13-45' AS DATE)", "CAST('999999-01-01 00:00:00' AS TIMESTAMP)", "id + 9223372036854775807"};
  private static final String[] TEMPLATES = {"SELECT %e FROM fuzz_t", "SELECT %e, %e FROM fuzz_t WHERE %e",
      "SELECT COUNT(*), SUM(id), AVG(id), MIN(name) FROM fuzz_t GROUP BY %e", "SELECT %e FROM fuzz_t ORDER BY %e",
      "SELECT a.id FROM fuzz_t a JOIN fuzz_t b ON a.id = b.id WHERE %e", "VALUES (%e), (%e)",
      "WITH w AS (SELECT %e AS v FROM fuzz_t) SELECT * FROM w", "SELECT %e FROM fuzz_t UNION SELECT %e FROM fuzz_t",
      "EXPLAIN PLAN FOR SELECT %e FROM fuzz_t", "SELECT * FROM \"fuzz_t@v1\"", "SELECT * FROM \"fuzz_t@v999999\"",
      "SELECT * FROM fuzz_t FOR SYSTEM_TIME AS OF TIMESTAMP '2000-01-01 00:00:00'", "SELECT %e",
      "INSERT INTO fuzz_t VALUES (%e, 'x')", "DELETE FROM fuzz_t", "DROP TABLE fuzz_t", "CREATE TABLE x (a INT)",
      "COPY fuzz_t TO '/tmp/x'", "SELECT * FROM read_parquet('/etc/passwd')", "SELECT * FROM \"s3://bucket/x\"",
      "SELECT * FROM \"/etc/passwd\"", "SELECT * FROM \"fuzz_t@../../x\"", "SET x = 1", "SELECT * FROM nope_%n",
      "SELECT * FROM TABLE(f(1))", "SELECT %e FROM fuzz_t LIMIT 9223372036854775807 OFFSET 9223372036854775807",
      "SELECT * FROM fuzz_t, fuzz_t b, fuzz_t c, fuzz_t d LIMIT 5", "SELECT %e INTO OUTFILE '/tmp/x' FROM fuzz_t",
      "SELECT \"" + "\u0000\u0001\n" + "\" FROM fuzz_t", "SELECT 1; SELECT 2", "SELECT", "", "   ", "\u0000"};
  private static final String[] TOKENS = {"(", ")", ",", "SELECT", "FROM", "WHERE", "'", "\"", "--", "/*", "*/",
      ";", "NOT", "AND", "OR", "JOIN", "UNION", "NULL", "?", "\\", "\u202e", "\ud800", "\uffff", "\n", "%", "$1",
      "fuzz_t", "@", "::", "[", "]"};

  private SqlMutator() {}

  static String statement(SplittableRandom r) {
    int shape = r.nextInt(10);
    String sql;
    if (shape == 0) {
      sql = nested(r);
    } else if (shape == 1) {
      sql = wide(r);
    } else {
      sql = fill(TEMPLATES[r.nextInt(TEMPLATES.length)], r);
    }
    return r.nextInt(3) == 0 ? mutate(sql, r) : sql;
  }

  private static String fill(String template, SplittableRandom r) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == '%' && i + 1 < template.length() && template.charAt(i + 1) == 'e') {
        b.append(expression(r, 0));
        i++;
      } else if (c == '%' && i + 1 < template.length() && template.charAt(i + 1) == 'n') {
        b.append(r.nextInt(1000));
        i++;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static String expression(SplittableRandom r, int depth) {
    if (depth > 3 || r.nextInt(3) > 0) {
      return EXPRESSIONS[r.nextInt(EXPRESSIONS.length)];
    }
    String a = expression(r, depth + 1);
    String b = expression(r, depth + 1);
    return switch (r.nextInt(6)) {
      case 0 -> "(" + a + " + " + b + ")";
      case 1 -> "(" + a + " = " + b + ")";
      case 2 -> "CAST(" + a + " AS VARCHAR)";
      case 3 -> "(" + a + " || " + b + ")";
      case 4 -> "(" + a + " * " + b + ")";
      default -> "NOT (" + a + ")";
    };
  }

  /** Deep nesting: functions, NOT, parentheses, subqueries (1..600 levels). */
  private static String nested(SplittableRandom r) {
    int depth = 1 + r.nextInt(600);
    return switch (r.nextInt(4)) {
      case 0 -> "SELECT " + "abs(".repeat(depth) + "id" + ")".repeat(depth) + " FROM fuzz_t";
      case 1 -> "SELECT id FROM fuzz_t WHERE " + "NOT ".repeat(depth) + "id = 1";
      case 2 -> "SELECT " + "(".repeat(depth) + "1" + ")".repeat(depth);
      default -> "SELECT * FROM " + "(SELECT * FROM ".repeat(Math.min(depth, 200)) + "fuzz_t"
          + ") s".repeat(Math.min(depth, 200));
    };
  }

  /** Wide statements: long IN lists, many joins or unions, huge literals, many parameters. */
  private static String wide(SplittableRandom r) {
    int n = 1 + r.nextInt(12_000);
    List<String> items = new ArrayList<>();
    switch (r.nextInt(5)) {
      case 0 -> {
        for (int i = 0; i < n; i++) {
          items.add(Integer.toString(i));
        }
        return "SELECT id FROM fuzz_t WHERE id IN (" + String.join(", ", items) + ")";
      }
      case 1 -> {
        StringBuilder b = new StringBuilder("SELECT t0.id FROM fuzz_t t0");
        for (int i = 1; i <= Math.min(n, 60); i++) {
          b.append(" JOIN fuzz_t t").append(i).append(" ON t").append(i).append(".id = t0.id");
        }
        return b.toString();
      }
      case 2 -> {
        for (int i = 0; i < Math.min(n, 150); i++) {
          items.add("SELECT id FROM fuzz_t");
        }
        return String.join(" UNION ALL ", items);
      }
      case 3 -> {
        return "SELECT '" + "x".repeat(Math.min(n * 100, 2_000_000)) + "' FROM fuzz_t";
      }
      default -> {
        for (int i = 0; i < n; i++) {
          items.add("?");
        }
        return "SELECT id FROM fuzz_t WHERE id IN (" + String.join(", ", items) + ")";
      }
    }
  }

  static String mutate(String sql, SplittableRandom r) {
    StringBuilder b = new StringBuilder(sql);
    int edits = 1 + r.nextInt(3);
    for (int k = 0; k < edits && b.length() > 0; k++) {
      int at = r.nextInt(b.length() + 1);
      switch (r.nextInt(5)) {
        case 0 -> b.insert(at, TOKENS[r.nextInt(TOKENS.length)]);
        case 1 -> b.delete(at, Math.min(b.length(), at + 1 + r.nextInt(10)));
        case 2 -> b.insert(at, b.substring(at, Math.min(b.length(), at + r.nextInt(20))));
        case 3 -> b.setLength(at);
        default -> b.insert(at, (char) r.nextInt(0x10000));
      }
    }
    return b.toString();
  }
}
