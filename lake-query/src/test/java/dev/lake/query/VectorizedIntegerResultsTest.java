package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * The vectorized executor computes INTEGER, SMALLINT and TINYINT expressions in longs; a result beyond its type is
 * refused naming the type (as Calcite's runtime refuses the same arithmetic), never narrowed into a wrapped value:
 * {@code i + 1} at INTEGER's maximum came back as -2147483648 (docs/api.md, "Exactness").
 */
class VectorizedIntegerResultsTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("g", new ArrowType.Int(32, true)),
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("s", new ArrowType.Int(16, true))));

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withExecutor(SubtreeExecutor.VECTORIZED).withBatchSize(1_000);
  }

  @Override
  void createTables() {
    TableRegistration table = null;
    for (int f = 0; f < 3; f++) {
      List<List<Object>> rows = new ArrayList<>();
      for (int r = 0; r < 4_000; r++) {
        rows.add(Arrays.asList(r % 4, Integer.MAX_VALUE - r % 3, (short) (Short.MAX_VALUE - r % 2)));
      }
      table = table == null ? createTable("big", SCHEMA, rows) : appendRows(table, SCHEMA, rows);
    }
  }

  @Test
  void integerResultsBeyondTheirTypeAreRefused() {
    String sql = "SELECT i + 1 AS k, COUNT(*) AS n FROM big GROUP BY i + 1";
    assertThat(explain(service, sql)).as(sql).contains("vectorized");
    refused(sql, "INTEGER overflow");
    refused("SELECT s + CAST(1 AS SMALLINT) AS k, COUNT(*) AS n FROM big GROUP BY s + CAST(1 AS SMALLINT)",
        "SMALLINT overflow");
    // within the type, the same shapes answer exactly
    assertThat(sorted(query("SELECT i - 1 AS k, COUNT(*) AS n FROM big GROUP BY i - 1").rows())).containsExactly(
        List.of(Integer.MAX_VALUE - 3, 3_999L), List.of(Integer.MAX_VALUE - 2, 3_999L),
        List.of(Integer.MAX_VALUE - 1, 4_002L));
  }

  private void refused(String sql, String message) {
    assertThatThrownBy(() -> query(sql)).as(sql).isInstanceOf(CodedFailure.class).hasMessageContaining(message)
        .satisfies(e -> assertThat(((CodedFailure) e).errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }
}
