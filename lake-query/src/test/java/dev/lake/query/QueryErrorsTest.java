package dev.lake.query;

import dev.lake.query.model.InexactResultException;
import dev.lake.query.model.QueryDataException;
import dev.lake.query.model.QueryRejectedException;
import dev.lake.query.model.TablePin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.TableRegistration;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Every failure reaches the caller as one of lake's types with a message that says what happened. */
class QueryErrorsTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  private TableRegistration t;

  @Override
  void createTables() {
    t = createTable("t", SCHEMA, List.of(Rows.row(1L, "one"), Rows.row(2L, "two")));
  }

  @Test
  void unknownTableIsTableNotFound() {
    assertThatThrownBy(() -> service.prepare("SELECT * FROM nope"))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("'nope'");
    assertThatThrownBy(() -> service.prepare("SELECT t.id FROM t JOIN lake.main.missing m ON t.id = m.id"))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("'missing'");
  }

  @Test
  void tableWithoutAPinIsNotFoundAtExecution() {
    assertThatThrownBy(() -> execute("SELECT * FROM t", Map.of(), List.of()))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("'t'");
  }

  @Test
  void unknownColumnIsRejected() {
    assertThatThrownBy(() -> service.prepare("SELECT nope FROM t"))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("SQL validation error")
        .hasMessageContaining("nope");
  }

  @Test
  void malformedSqlIsRejectedAsSyntaxError() {
    assertThatThrownBy(() -> service.prepare("SELEC id FROM t"))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageStartingWith("syntax error at line 1, column 1");
    assertThatThrownBy(() -> service.prepare("SELECT id FROM t WHERE"))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageStartingWith("syntax error at line 1");
    assertThatThrownBy(() -> service.prepare("   "))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("empty");
  }

  @Test
  void hugeInputIsNotEchoedInFull() {
    String garbage = "SELECT '" + "x".repeat(100_000) + " FROM t";
    assertThatThrownBy(() -> service.prepare(garbage))
        .isInstanceOf(QueryRejectedException.class)
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(1_000));
    String longName = "SELECT * FROM t" + "x".repeat(5_000);
    assertThatThrownBy(() -> service.prepare(longName))
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(1_000));
  }

  @Test
  void deeplyNestedSqlIsRejectedNotAStackOverflow() {
    int depth = 50_000;
    String sql = "SELECT " + "(".repeat(depth) + "1" + ")".repeat(depth) + " FROM t";
    assertThatThrownBy(() -> service.prepare(sql))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("nested too deeply");
    StringBuilder sum = new StringBuilder("SELECT 1");
    for (int i = 0; i < 20_000; i++) {
      sum.append(" + (1");
    }
    sum.append(")".repeat(20_000)).append(" FROM t");
    assertThatThrownBy(() -> service.prepare(sum.toString()))
        .isInstanceOf(QueryRejectedException.class);
  }

  @Test
  void registryOutageSurfacesAsUnavailableNotAsNotFound() {
    catalog.setDown(true);
    try {
      assertThatThrownBy(() -> service.prepare("SELECT * FROM t"))
          .isInstanceOf(RegistryUnavailableException.class);
    } finally {
      catalog.setDown(false);
    }
  }

  @Test
  void droppedVersionIsNotFoundWithAReason() {
    TableRegistration gone = createTable("gone", SCHEMA, List.of(Rows.row(1L, "x")));
    engine.drop(gone.location());
    assertThatThrownBy(() -> execute("SELECT * FROM gone", Map.of("gone", TablePin.of(gone)), List.of()))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("no longer available");
  }

  @Test
  void wrongParameterCountIsRejected() {
    assertThatThrownBy(() -> execute("SELECT * FROM t WHERE id = ?", Map.of("t", TablePin.of(t)), List.of()))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("1 parameter(s) but 0 value(s)");
  }

  @Test
  void parameterWhoseTypeCannotBeInferredIsRejected() {
    assertThatThrownBy(() -> service.prepare("SELECT ? FROM t"))
        .isInstanceOf(QueryRejectedException.class)
        .hasMessageContaining("cannot be inferred")
        .hasMessageContaining("CAST(? AS BIGINT)");
    assertThat(service.prepare("SELECT CAST(? AS BIGINT) FROM t").parameterSchema().getFields()).hasSize(1);
  }

  @Test
  void divisionByZeroFailsAsExecutionErrorWhileStreaming() {
    assertThatThrownBy(() -> query("SELECT id / (id - id) FROM t"))
        .isInstanceOf(QueryDataException.class)
        .hasMessage("division by zero");
  }

  @Test
  void runtimeDataErrorsAreTypedAndSpeakSql() {
    // a constant expression fails in the generated class's initializer; the second run must say the same
    for (int run = 0; run < 2; run++) {
      assertThatThrownBy(() -> query("SELECT 1 / 0 FROM t"))
          .isInstanceOf(QueryDataException.class)
          .hasMessage("division by zero");
    }
    assertThatThrownBy(() -> query("SELECT CAST(name AS BIGINT) FROM t"))
        .isInstanceOf(QueryDataException.class)
        .hasMessage("cannot cast 'one' to BIGINT");
    for (String sql : List.of("SELECT id / (id - id) FROM t", "SELECT CAST(name AS INTEGER) + id FROM t",
        "SELECT 1 / 0 FROM t", "SELECT MOD(id, id - id) FROM t")) {
      assertThatThrownBy(() -> query(sql))
          .as(sql)
          .isInstanceOf(QueryDataException.class)
          .satisfies(e -> assertThat(((QueryDataException) e).errorCode())
              .isEqualTo(dev.lake.registry.error.ErrorCode.INVALID_ARGUMENT))
          .message().doesNotContain("/ by zero").doesNotContain("For input string").doesNotContain("java.");
    }
  }
  /** Calcite's window runtime adds longs unchecked; lake's window sums of integers fail instead of wrapping. */
  @Test
  void windowSumsOfIntegersNeverWrap() {
    for (String sql : List.of(
        "SELECT id, SUM(id + 4611686018427387903) OVER (ORDER BY id) AS s FROM t",
        "SELECT id, SUM(id + 4611686018427387903) OVER (PARTITION BY name IS NULL) AS s FROM t",
        "SELECT id, SUM(id + 4611686018427387903) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s"
            + " FROM t")) {
      assertThatThrownBy(() -> query(sql))
          .as(sql)
          .isInstanceOf(InexactResultException.class)
          .hasMessageContaining("BIGINT")
          .satisfies(e -> assertThat(((InexactResultException) e).errorCode())
              .isEqualTo(dev.lake.registry.error.ErrorCode.INVALID_ARGUMENT));
    }
    Result exact = query("SELECT id, SUM(id) OVER (ORDER BY id) AS s, SUM(CAST(id AS INTEGER)) OVER () AS total"
        + " FROM t ORDER BY id");
    assertThat(exact.rows()).containsExactly(List.of(1L, 1L, 3L), List.of(2L, 3L, 3L));
    assertThat(exact.schema().getFields().get(1).getType()).isEqualTo(new ArrowType.Int(64, true));
  }
}
