package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.query.model.QueryRejectedException;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * A BOOLEAN compared with a number the client did not write as 1 or 0 is the client's type error, refused with the
 * types named (as PostgreSQL refuses it) — not an internal failure: Calcite's coercion would cast the boolean to the
 * number's type and, for a boolean literal, trips an assertion (seen by the fuzzing of AutoParameterizationTest:
 * {@code WHERE TRUE <> d} with {@code d} DOUBLE). A boolean compared with a numeric literal keeps Calcite's meaning
 * ({@code b = 1} is {@code b = TRUE}).
 */
class BooleanComparisonTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("b", ArrowType.Bool.INSTANCE)));

  @Override
  void createTables() {
    createTable("t", SCHEMA, List.of(Arrays.asList(1, 1.0, true), Arrays.asList(2, 0.0, false),
        Arrays.asList(3, 2.5, true), Arrays.asList(4, null, null)));
  }

  @Test
  void aBooleanComparedWithANumberIsRefusedWithTheTypesNamed() {
    for (String condition : List.of("TRUE <> d", "d = FALSE", "b <> d", "d < b", "b = i", "TRUE = i + 1",
        "TRUE <> d AND 'x' > 'w' AND i <> CAST(7 AS SMALLINT)")) {
      String sql = "SELECT i FROM t WHERE " + condition;
      assertThatThrownBy(() -> query(sql)).as(sql).isInstanceOf(QueryRejectedException.class)
          .hasMessageContaining("BOOLEAN").hasMessageNotContaining("bug in lake");
    }
  }

  @Test
  void aBooleanComparedWithOneOrZeroMeansTrueOrFalse() {
    assertThat(sorted(query("SELECT i FROM t WHERE b = 1").rows())).containsExactly(List.of(1), List.of(3));
    assertThat(sorted(query("SELECT i FROM t WHERE b = 0").rows())).containsExactly(List.of(2));
    assertThat(sorted(query("SELECT i FROM t WHERE b = TRUE AND d > 1").rows())).containsExactly(List.of(3));
  }

  @Test
  void booleanEqualsOnlyTheLiteralsOneAndZero() {
    for (String condition : List.of("b = 2", "b = -1", "2 = b", "b <> 2", "b = 0.5", "b = 1.5", "b = 2e0",
        "b = 1 OR b = 3", "CASE WHEN b = 3 THEN TRUE ELSE FALSE END")) {
      String sql = "SELECT i FROM t WHERE " + condition;
      assertThatThrownBy(() -> query(sql)).as(sql).isInstanceOf(QueryRejectedException.class)
          .hasMessageContaining("BOOLEAN").hasMessageNotContaining("bug in lake");
    }
    assertThatThrownBy(() -> query("SELECT CASE WHEN b = 3 THEN 1 ELSE 0 END FROM t"))
        .isInstanceOf(QueryRejectedException.class).hasMessageContaining("BOOLEAN");
    assertThatThrownBy(() -> query("SELECT i FROM t WHERE b IN (1, 2)")).isInstanceOf(QueryRejectedException.class);
    for (String one : List.of("b = 1", "1 = b", "b = 1.0", "b = 1e0", "b <> 0")) {
      assertThat(sorted(query("SELECT i FROM t WHERE " + one).rows())).as(one)
          .containsExactly(List.of(1), List.of(3));
    }
    for (String zero : List.of("b = 0", "0 = b", "b = 0.0", "b = -0", "b <> 1")) {
      assertThat(sorted(query("SELECT i FROM t WHERE " + zero).rows())).as(zero).containsExactly(List.of(2));
    }
  }
}
