package dev.lake.query;

import dev.lake.query.model.QueryRejectedException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Parameters bind as literals of their inferred types, so filters on them still reach Lance. */
class ParameterBindingTest extends LakeTestSupport {
  private static final ArrowType BIGINT = new ArrowType.Int(64, true);
  private static final ArrowType DECIMAL = new ArrowType.Decimal(15, 2, 128);
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", BIGINT),
      Field.nullable("status", ArrowType.Utf8.INSTANCE),
      Field.nullable("ordered", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("amount", DECIMAL),
      Field.nullable("placed_at", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));

  @Override
  void createTables() {
    LocalDateTime t0 = LocalDateTime.of(2024, 3, 1, 12, 0);
    createTable("orders", SCHEMA, List.of(
        Rows.row(1L, "new", LocalDate.of(2024, 1, 5), new BigDecimal("100.00"), t0),
        Rows.row(2L, "shipped", LocalDate.of(2024, 2, 1), new BigDecimal("50.50"), t0.plusNanos(1_000)),
        Rows.row(3L, "new", LocalDate.of(2024, 2, 9), new BigDecimal("7.25"), t0.plusHours(1)),
        Rows.row(4L, "it's", null, null, null)));
  }

  @Test
  void prepareReportsTheInferredParameterTypes() {
    PreparedQuery prepared = service.prepare(
        "SELECT id FROM orders WHERE id = ? AND status = ? AND ordered >= ? AND amount > ?");
    assertThat(prepared.parameterSchema().getFields()).extracting(Field::getType)
        .containsExactly(BIGINT, ArrowType.Utf8.INSTANCE, new ArrowType.Date(DateUnit.DAY), DECIMAL);
    assertThat(prepared.parameterSchema().getFields()).extracting(Field::getName)
        .containsExactly("parameter_1", "parameter_2", "parameter_3", "parameter_4");
    assertThat(service.prepare("SELECT id FROM orders").parameterSchema().getFields()).isEmpty();
  }

  @Test
  void parametersBindOnThePassThroughPath() {
    assertPassThrough("SELECT id FROM orders WHERE id = ?", 2L);
    assertThat(query("SELECT id FROM orders WHERE id = ?", 2L).column(0)).containsExactly(2L);
    assertThat(query("SELECT id FROM orders WHERE id = ?", 3).column(0)).as("an Integer for a BIGINT")
        .containsExactly(3L);
    assertPassThrough("SELECT id FROM orders WHERE status = ?", "it's");
    assertThat(query("SELECT id FROM orders WHERE status = ?", "it's").column(0)).containsExactly(4L);
    assertPassThrough("SELECT id FROM orders WHERE ordered >= ?", LocalDate.of(2024, 2, 1));
    assertThat(query("SELECT id FROM orders WHERE ordered >= ?", LocalDate.of(2024, 2, 1)).column(0))
        .containsExactlyInAnyOrder(2L, 3L);
    assertPassThrough("SELECT id FROM orders WHERE amount > ?", new BigDecimal("50.5"));
    assertThat(query("SELECT id FROM orders WHERE amount > ?", new BigDecimal("50.5")).column(0))
        .containsExactly(1L);
    assertThat(query("SELECT id FROM orders WHERE amount >= ?", 50L).column(0)).containsExactlyInAnyOrder(1L, 2L);
    assertPassThrough("SELECT id FROM orders WHERE placed_at = ?", LocalDateTime.of(2024, 3, 1, 12, 0, 0, 1_000));
    assertThat(query("SELECT id FROM orders WHERE placed_at = ?", LocalDateTime.of(2024, 3, 1, 12, 0, 0, 1_000))
        .column(0)).as("microseconds of a bound timestamp reach Lance").containsExactly(2L);
  }

  @Test
  void parametersBindOnTheCalcitePath() {
    Result grouped = query("SELECT status, COUNT(*) FROM orders WHERE amount > ? AND ordered < ?"
        + " GROUP BY status ORDER BY status", new BigDecimal("5"), LocalDate.of(2024, 2, 5));
    assertThat(grouped.rows()).containsExactly(List.of("new", 1L), List.of("shipped", 1L));
    assertThat(query("SELECT id + ? FROM orders WHERE status = ? ORDER BY id", 10L, "new").column(0))
        .containsExactly(11L, 13L);
    assertThat(query("SELECT id FROM orders WHERE UPPER(status) = ? ORDER BY id", "NEW").column(0))
        .containsExactly(1L, 3L);
  }

  @Test
  void nullParameterMatchesNothingInAComparison() {
    Result result = execute("SELECT id FROM orders WHERE id = ?", service.prepare(
        "SELECT id FROM orders WHERE id = ?").pins(), Arrays.asList((Object) null));
    assertThat(result.rows()).isEmpty();
  }

  @Test
  void limitParameterBinds() {
    assertThat(query("SELECT id FROM orders LIMIT ?", 2).rows()).hasSize(2);
  }

  @Test
  void valueThatDoesNotFitTheParameterTypeIsRejected() {
    assertThatThrownBy(() -> query("SELECT id FROM orders WHERE id = ?", "abc"))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("parameter 1 expects BIGINT");
    assertThatThrownBy(() -> query("SELECT id FROM orders WHERE amount = ?", new BigDecimal("1.234")))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("parameter 1 expects DECIMAL(15, 2)");
    assertThatThrownBy(() -> query("SELECT id FROM orders WHERE ordered = ?", 5L))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("parameter 1 expects DATE");
  }

  @Test
  void explainWithoutValuesShowsTheUnboundPlan() {
    Result result = query("EXPLAIN PLAN FOR SELECT id FROM orders WHERE id = ?");
    assertThat(String.join("\n", result.column(0).stream().map(String::valueOf).toList())).contains("?0");
  }

  private void assertPassThrough(String sql, Object parameter) {
    Result plan = query("EXPLAIN PLAN FOR " + sql, parameter);
    assertThat(String.valueOf(plan.rows().get(0).get(0))).as("plan of %s", sql).startsWith("pass-through");
  }
}
