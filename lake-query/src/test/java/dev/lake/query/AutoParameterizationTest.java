package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.sql.LiteralParameters;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Literal auto-parameterization (issue 22): an un-prepared statement whose comparison literals become parameters
 * answers exactly what the statement planned as written answers — rows, result schema and its metadata, or the same
 * refusal — over many random statements with edge values (type bounds and one past them, negative numbers, decimals,
 * NULL, typed literals, strings with quotes, blanks and non-Latin letters, literals on either side), and statements
 * that differ only in such literals share one cached plan.
 */
class AutoParameterizationTest extends LakeTestSupport {
  private static final String[] WORDS = {"1-URGENT", "2-HIGH", "it's", "", "a ", "é", "中文", "5-LOW"};
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("k", new ArrowType.Int(64, true)),
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("s", new ArrowType.Int(16, true)),
      Field.nullable("t", new ArrowType.Int(8, true)),
      Field.nullable("p", ArrowType.Utf8.INSTANCE),
      Field.nullable("amount", new ArrowType.Decimal(15, 2, 128)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("b", ArrowType.Bool.INSTANCE)));
  private static final String[] COLUMNS = {"k", "i", "s", "t", "p", "amount", "d", "day", "b"};
  private static final String[] OPERATORS = {"=", "=", "=", "<>", "<", "<=", ">", ">=", "!="};
  private static final String[] EDGES = {"0", "1", "7", "127", "128", "-128", "-129", "32767", "32768", "2147483647",
      "2147483648", "-2147483648", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
      "99999999999999999999", "007", "1.0", "1.5", "-5", "5e0", "NULL", "TRUE", "DATE '1995-01-05'",
      "TIMESTAMP '1995-01-05 00:00:00'", "CAST(7 AS SMALLINT)", "12.25", "'7'", "'abc'", "'1995-01-05'"};

  private final Random random = new Random(2214);
  private QueryService literalService;

  @Override
  void createTables() {
    List<List<Object>> rows = new ArrayList<>();
    for (int row = 0; row < 2_000; row++) {
      int n = row;
      rows.add(Arrays.asList((long) n,
          nullOr(() -> n % 5 == 0 ? Long.MAX_VALUE - random.nextInt(3) : (long) random.nextInt(300) - 10),
          nullOr(() -> n % 7 == 0 ? Integer.MAX_VALUE : random.nextInt(300) - 150),
          nullOr(() -> (short) (n % 11 == 0 ? Short.MAX_VALUE : random.nextInt(200) - 100)),
          nullOr(() -> (byte) (n % 13 == 0 ? Byte.MIN_VALUE : random.nextInt(200) - 100)),
          nullOr(() -> WORDS[random.nextInt(WORDS.length)]),
          nullOr(() -> BigDecimal.valueOf(random.nextInt(2_000) - 1_000, 2)),
          nullOr(() -> (double) (random.nextInt(20) - 5) / 2),
          nullOr(() -> LocalDate.of(1995, 1, 1).plusDays(random.nextInt(10))),
          nullOr(() -> random.nextBoolean())));
    }
    createTable("r", SCHEMA, rows);
    literalService = new QueryService(catalog, engine, QueryOptions.defaults().withAutoParameterize(false));
  }

  @AfterAll
  void stopLiteralService() {
    literalService.close();
  }

  private Object nullOr(java.util.function.Supplier<Object> value) {
    return random.nextInt(10) == 0 ? null : value.get();
  }

  @Test
  void autoParameterizedStatementsAnswerExactlyLikeTheTextPlannedAsWritten() {
    int parameterized = 0;
    for (int round = 0; round < 400; round++) {
      String sql = randomStatement();
      if (LiteralParameters.of(sql).isPresent()) {
        parameterized++;
      }
      Outcome literal = outcome(literalService, sql);
      Outcome auto = outcome(service, sql);
      assertThat(auto).as(sql).isEqualTo(literal);
    }
    assertThat(parameterized).as("statements with literals to parameterize").isGreaterThan(150);
  }

  @Test
  void unpreparedKeyLookupsWithDifferentLiteralsShareOnePlan() {
    PlanCacheStats before = service.planCacheStats();
    for (int key = 0; key < 40; key++) {
      String sql = "SELECT * FROM r WHERE k = " + key;
      PreparedQuery prepared = service.prepare(sql);
      assertThat(prepared.parameterSchema().getFields()).as("the client sent no parameters").isEmpty();
      assertThat(prepared.sql()).isEqualTo(sql);
      execute(sql, prepared.pins(), List.of());
    }
    PlanCacheStats after = service.planCacheStats();
    assertThat(after.size() - before.size()).as("statements cached for 40 texts").isLessThanOrEqualTo(1);
    assertThat(after.bound() - before.bound()).as("executions bound into the one scan").isEqualTo(40);
  }

  @Test
  void onlyTheNarrowShapeIsParameterized() {
    assertThat(LiteralParameters.of("SELECT * FROM r WHERE k = 12345")).get()
        .satisfies(p -> assertThat(p.text()).isEqualTo("SELECT * FROM r WHERE k = ?"))
        .satisfies(p -> assertThat(p.literals()).containsExactly(java.math.BigInteger.valueOf(12345)));
    assertThat(LiteralParameters.of("SELECT id, p FROM r WHERE 'x''y' = p AND i < 3 ORDER BY 1 LIMIT 10")).get()
        .satisfies(p -> assertThat(p.text()).isEqualTo("SELECT id, p FROM r WHERE ? = p AND i < ? ORDER BY 1 LIMIT 10"))
        .satisfies(p -> assertThat(p.literals()).containsExactly("x'y", java.math.BigInteger.valueOf(3)));
    assertThat(LiteralParameters.of("SELECT * FROM r WHERE k = 007")).get()
        .satisfies(p -> assertThat(p.literals()).containsExactly(java.math.BigInteger.valueOf(7)));
    for (String kept : List.of("SELECT k + 1 FROM r WHERE k = 5", "SELECT count(*) FROM r WHERE k = 5",
        "SELECT DISTINCT k FROM r WHERE k = 5", "SELECT * FROM r, r AS q WHERE r.k = 5",
        "SELECT * FROM r WHERE k = ?", "SELECT * FROM r WHERE k = -5", "SELECT * FROM r WHERE k = 1.0",
        "SELECT * FROM r WHERE p = 'a '", "SELECT * FROM r WHERE p = _UTF8'a'",
        "SELECT * FROM r WHERE k = 5 OR k = 6", "SELECT * FROM r WHERE k IN (5, 6)", "EXPLAIN SELECT * FROM r WHERE k = 5",
        "SELECT * FROM r WHERE abs(k) = 5", "SELECT * FROM r LIMIT 5")) {
      assertThat(LiteralParameters.of(kept)).as(kept).isEmpty();
    }
  }

  private String randomStatement() {
    String select = switch (random.nextInt(3)) {
      case 0 -> "*";
      case 1 -> "id, p, k";
      default -> "id, amount, day, b, t, s";
    };
    StringBuilder where = new StringBuilder();
    int conjuncts = 1 + random.nextInt(3);
    for (int c = 0; c < conjuncts; c++) {
      if (c > 0) {
        where.append(random.nextInt(8) == 0 ? " OR " : " AND ");
      }
      String column = COLUMNS[random.nextInt(COLUMNS.length)];
      String operator = OPERATORS[random.nextInt(OPERATORS.length)];
      String value = literal(column);
      if (random.nextInt(4) == 0) {
        where.append(value).append(' ').append(operator).append(' ').append(column);
      } else {
        where.append(column).append(' ').append(operator).append(' ').append(value);
      }
    }
    String sql = "SELECT " + select + " FROM r WHERE " + where;
    int tail = random.nextInt(4);
    return tail == 0 ? sql + " ORDER BY id LIMIT " + random.nextInt(5)
        : tail == 1 ? sql + " ORDER BY 1 DESC" : sql;
  }

  private String literal(String column) {
    if (random.nextInt(3) == 0) {
      return EDGES[random.nextInt(EDGES.length)];
    }
    return switch (column) {
      case "p" -> "'" + WORDS[random.nextInt(WORDS.length)].replace("'", "''") + "'";
      case "amount" -> random.nextBoolean() ? String.valueOf(random.nextInt(12) - 2)
          : BigDecimal.valueOf(random.nextInt(2_000) - 1_000, 2).toPlainString();
      case "day" -> "DATE '1995-01-0" + (1 + random.nextInt(9)) + "'";
      case "b" -> random.nextBoolean() ? "TRUE" : "FALSE";
      case "d" -> String.valueOf(random.nextInt(8));
      default -> String.valueOf(random.nextInt(300) - 10);
    };
  }

  /** What one service answers: the schema and rows (sorted unless the statement orders them), or its refusal. */
  private Outcome outcome(QueryService on, String sql) {
    try {
      PreparedQuery prepared = on.prepare(sql);
      Result result = collect(on.execute(sql, prepared.pins(), List.of(), allocator));
      assertThat(result.schema()).as("executed schema equals prepared schema").isEqualTo(prepared.resultSchema());
      List<List<Object>> rows = new ArrayList<>(result.rows());
      if (!sql.contains("ORDER BY")) {
        rows.sort(Comparator.comparing(Object::toString));
      }
      return new Outcome(prepared.resultSchema().toJson(), prepared.parameterSchema().getFields().size(),
          rows.toString(), null);
    } catch (RuntimeException e) {
      return new Outcome(null, 0, null, e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private record Outcome(String schema, int parameters, String rows, String failure) {}
}
