package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * BOOLEAN columns keep their values and NULLs whatever slice of Lance's answer a row comes from. Lance's SQL engine
 * slices its result arrays (LIMIT, OFFSET, its batch size), a sliced boolean array crosses the C data interface with
 * a bit offset, and Arrow Java's import ignores it: before lake wrote BOOLEAN outputs as TINYINT, {@code SELECT b
 * FROM t OFFSET 1} read every row's bits from the slice's start (a pyarrow client saw a NULL and a FALSE come back
 * TRUE). Every answer is checked against the values the rows were written with, on each path a boolean can take out
 * of Lance: a statement Lance's SQL engine runs whole, a pushed subtree under a Calcite join, a pass-through scan.
 */
class BooleanOffsetsTest extends LakeTestSupport {
  private static final int ROWS = 20_000;
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("b", ArrowType.Bool.INSTANCE),
      Field.nullable("f", new ArrowType.Int(32, true))));
  private static final Schema KEYS = new Schema(List.of(Field.nullable("k", new ArrowType.Int(64, true))));

  @Override
  void createTables() {
    List<List<Object>> rows = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      rows.add(Arrays.asList(id, written(id), id % 5 == 0 ? null : (int) id));
    }
    createTable("bt", SCHEMA, rows);
    List<List<Object>> keys = new ArrayList<>();
    for (long k = 0; k < ROWS; k += 3) {
      keys.add(List.of(k));
    }
    createTable("keys", KEYS, keys);
  }

  /** The BOOLEAN row {@code id} was written with: NULL every 7th row, else whether 3 divides it. */
  private static Boolean written(long id) {
    return id % 7 == 0 ? null : id % 3 == 0;
  }

  @Test
  void booleansLanceSlicesForOffsetsAndLimitsKeepTheirValues() {
    String sql = "SELECT id, b, f FROM bt LIMIT 10 OFFSET 5";
    assertThat(explain(service, sql)).as(sql).contains("lance-sql");
    assertStored(sql, 10, false);
    assertStored("SELECT id, b, f FROM bt ORDER BY id LIMIT 10 OFFSET 5", 10, false);
    assertStored("SELECT id, b, f FROM bt OFFSET 19990", 10, false);
    assertStored("SELECT id, NOT b AS b, f FROM bt OFFSET 3", ROWS - 3, true);
    assertStored("SELECT id, b, f FROM bt WHERE f > 100 ORDER BY id DESC LIMIT 1000 OFFSET 3", 1000, false);
  }

  @Test
  void booleansOfAPushedSubtreeUnderAJoinKeepTheirValues() {
    String sql = "SELECT x.id, x.b, x.f FROM (SELECT id, b, f FROM bt ORDER BY id LIMIT 5000 OFFSET 3) x"
        + " JOIN keys ON x.id = keys.k";
    assertThat(explain(service, sql)).as(sql).contains("engine=[lance-sql]").contains("CAST(\"b\" AS TINYINT)");
    assertStored(sql, 1667, false);
  }

  @Test
  void booleansOfPassThroughScansKeepTheirValues() {
    String sql = "SELECT id, b, f FROM bt WHERE id >= 5 LIMIT 10";
    assertThat(explain(service, sql)).as(sql).contains("pass-through");
    assertStored(sql, 10, false);
    assertStored("SELECT id, b, f FROM bt", ROWS, false);
    int trueRows = (int) java.util.stream.LongStream.range(0, ROWS).filter(id -> Boolean.TRUE.equals(written(id)))
        .count();
    assertStored("SELECT id, b, f FROM bt WHERE b", trueRows, false);
  }

  /** {@code sql} answers {@code rows} rows of (id, b, f), each as written ({@code b} negated when {@code not}). */
  private void assertStored(String sql, int rows, boolean not) {
    List<List<Object>> answer = query(sql).rows();
    assertThat(answer).as(sql).hasSize(rows);
    for (List<Object> row : answer) {
      long id = (Long) row.get(0);
      Boolean b = written(id);
      Boolean expected = b == null ? null : not ? !b : b;
      assertThat(row.get(1)).as(sql + ": b of row " + id).isEqualTo(expected);
      assertThat(row.get(2)).as(sql + ": f of row " + id).isEqualTo(id % 5 == 0 ? null : (int) id);
    }
  }
}
