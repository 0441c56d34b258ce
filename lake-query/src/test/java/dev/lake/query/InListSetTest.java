package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.sql.StatementLimits;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Issue 17: an IN list longer than 32 values is planned as a set (a semi join against its VALUES); its answers equal
 * those of the same values written as short IN lists joined by OR (planned as comparisons), in SQL's three-valued
 * logic — NULL probe values, NULLs in the list, NOT IN — for every literal type, on random data.
 */
class InListSetTest extends LakeTestSupport {
  private static final Schema R = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("i", new ArrowType.Int(64, true)),
      Field.nullable("n", new ArrowType.Int(32, true)),
      Field.nullable("d", new ArrowType.Decimal(10, 2, 128)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("dt", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));
  private static final int ROWS = 400;
  private static final LocalDate EPOCH = LocalDate.of(2024, 1, 1);
  private final Random random = new Random(17);

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withStatementLimits(StatementLimits.fromKeys(Map.of("query.max-in-list", "10000")));
  }

  @Override
  void createTables() {
    List<List<Object>> rows = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      rows.add(Rows.row(id, maybe(random.nextInt(200) - 50L), maybe(random.nextInt(100)),
          maybe(BigDecimal.valueOf(random.nextInt(4000) - 1000, 2)), maybe(word(random.nextInt(300))),
          maybe(EPOCH.plusDays(random.nextInt(120))),
          maybe(EPOCH.atStartOfDay().plusSeconds(random.nextInt(200) * 3600L))));
    }
    createTable("r", R, rows);
  }

  private Object maybe(Object value) {
    return random.nextInt(7) == 0 ? null : value;
  }

  private static String word(int k) {
    return "w" + Integer.toString(k, 7) + (k % 3 == 0 ? "" : "x".repeat(k % 5));
  }

  @Test
  void longInListsAnswerAsShortListsJoinedByOr() {
    List<Column> columns = List.of(
        new Column("i", variant -> Long.toString(random.nextInt(220) - 60)),
        // integers compared with decimals (coerced as SQL does: 7.0 equals 7, 7.5 equals nothing)
        new Column("n", variant -> variant && random.nextBoolean() ? Integer.toString(random.nextInt(110))
            : random.nextInt(110) + (random.nextBoolean() ? ".0" : ".5")),
        new Column("d", variant -> BigDecimal.valueOf(random.nextInt(4400) - 1200, random.nextInt(3)).toPlainString()),
        new Column("s", variant -> "'" + word(random.nextInt(330)) + "'"),
        // all DATE literals, or all strings coerced to DATE
        new Column("dt", variant -> (variant ? "DATE " : "") + "'" + EPOCH.plusDays(random.nextInt(130)) + "'"),
        new Column("ts", variant -> "TIMESTAMP '" + EPOCH.atStartOfDay().plusSeconds(random.nextInt(220) * 3600L)
            .format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")) + "'"));
    int compared = 0;
    for (Column column : columns) {
      for (int size : new int[] {33, 90, 250}) {
        for (boolean withNull : new boolean[] {false, true}) {
          List<String> values = new ArrayList<>();
          boolean variant = random.nextBoolean();
          for (int k = 0; k < size; k++) {
            values.add(column.literal().apply(variant));
          }
          if (withNull) {
            values.set(random.nextInt(size), "NULL");
          }
          for (boolean not : new boolean[] {false, true}) {
            String set = column.name() + (not ? " NOT IN " : " IN ") + list(values, 0, values.size());
            String chunks = orOfShortLists(column.name(), values);
            String expected = not ? "NOT (" + chunks + ")" : chunks;
            // projected: TRUE, FALSE and NULL are told apart
            assertThat(query("SELECT id, " + set + " FROM r ORDER BY id").rows())
                .as("%s", abbreviate(set)).isEqualTo(query("SELECT id, " + expected + " FROM r ORDER BY id").rows());
            // filtered (a scan's filter, where Lance may take part)
            assertThat(query("SELECT count(*), sum(id) FROM r WHERE " + set).rows())
                .as("WHERE %s", abbreviate(set))
                .isEqualTo(query("SELECT count(*), sum(id) FROM r WHERE " + expected).rows());
            compared++;
          }
        }
      }
    }
    assertThat(compared).isEqualTo(columns.size() * 3 * 2 * 2);
    // a list mixing kinds of constants (strings and DATE literals) stays a list: same answers
    List<String> mixed = new ArrayList<>();
    for (int k = 0; k < 40; k++) {
      mixed.add((k % 2 == 0 ? "DATE " : "") + "'" + EPOCH.plusDays(k * 2) + "'");
    }
    assertThat(query("SELECT id, dt IN " + list(mixed, 0, 40) + " FROM r ORDER BY id").rows())
        .isEqualTo(query("SELECT id, " + orOfShortLists("dt", mixed) + " FROM r ORDER BY id").rows());
    // a NULL probe value, and constants on both sides (no table)
    assertThat(query("SELECT CAST(NULL AS INTEGER) IN " + range(1, 40) + ", 5 IN " + range(1, 40) + ", 50 IN "
        + range(1, 40) + ", 50 NOT IN " + range(1, 40) + ", 50 NOT IN " + range(1, 40).replace("(1,", "(NULL,"))
        .rows()).containsExactly(Rows.row(null, true, false, true, null));
  }

  @Test
  void tenThousandValuesPlanAndRunPromptly() {
    // the bound is loose (a loaded machine); before, 1,000 values of a NOT IN over VALUES ran over 90 s
    for (int n : new int[] {100, 1_000, 10_000}) {
      long started = System.nanoTime();
      List<List<Object>> scan = query("SELECT count(*) FROM r WHERE i IN " + range(0, n)).rows();
      long scanMs = (System.nanoTime() - started) / 1_000_000;
      started = System.nanoTime();
      List<List<Object>> values = query("SELECT count(*) FROM (VALUES (1), (4), (-5), (NULL)) AS v(x) WHERE x NOT IN "
          + range(0, n)).rows();
      long valuesMs = (System.nanoTime() - started) / 1_000_000;
      System.out.println("IN-as-set n=" + n + ": scan " + scanMs + " ms, NOT IN over VALUES " + valuesMs + " ms");
      assertThat(values).containsExactly(Rows.row(1L));
      assertThat(scan.get(0).get(0)).isEqualTo(query("SELECT count(*) FROM r WHERE i >= 0 AND i < " + n)
          .rows().get(0).get(0));
      assertThat(scanMs + valuesMs).as("%d values", n).isLessThan(60_000);
    }
  }

  private static String range(int from, int to) {
    StringJoiner out = new StringJoiner(", ", "(", ")");
    for (int k = from; k < to; k++) {
      out.add(Integer.toString(k));
    }
    return out.toString();
  }

  private static String orOfShortLists(String column, List<String> values) {
    StringJoiner or = new StringJoiner(" OR ", "(", ")");
    for (int from = 0; from < values.size(); from += 30) {
      or.add(column + " IN " + list(values, from, Math.min(values.size(), from + 30)));
    }
    return or.toString();
  }

  private static String list(List<String> values, int from, int to) {
    return "(" + String.join(", ", values.subList(from, to)) + ")";
  }

  private static String abbreviate(String sql) {
    return sql.length() > 160 ? sql.substring(0, 160) + "..." : sql;
  }

  private record Column(String name, java.util.function.Function<Boolean, String> literal) {}

}
