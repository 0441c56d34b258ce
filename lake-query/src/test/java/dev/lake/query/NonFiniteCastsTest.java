package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * NaN and the infinities have no integer value: a CAST of one to an integer type is refused naming the value and the
 * type (as a CAST to DECIMAL is), never a wrong number; ROUND and TRUNCATE of a DOUBLE keep NaN and the infinities
 * and round to any number of places (docs/api.md, "Errors").
 */
class NonFiniteCastsTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("r", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))));

  @Override
  void createTables() {
    // g alternates 0/1; d is 1.5 (rounds to 2), except one NaN per fragment
    Schema many = new Schema(List.of(Field.nullable("g", new ArrowType.Int(32, true)),
        Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
    dev.lake.registry.TableRegistration table = null;
    for (int f = 0; f < 3; f++) {
      List<List<Object>> rows = new java.util.ArrayList<>();
      for (int i = 0; i < 4_000; i++) {
        rows.add(Arrays.asList(i % 2, i == 17 ? Double.NaN : 1.5));
      }
      table = table == null ? createTable("many", many, rows) : appendRows(table, many, rows);
    }
    createTable("p", SCHEMA, List.of(Arrays.asList(1, 1.5, 1.5f), Arrays.asList(2, Double.NaN, Float.NaN),
        Arrays.asList(3, Double.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY), Arrays.asList(4, null, null)));
  }

  @Test
  void nanAndInfinityNameThemselves() {
    refused("SELECT CAST(d AS BIGINT) FROM p WHERE i = 2", "cannot cast NaN to BIGINT");
    refused("SELECT CAST(d AS INTEGER) FROM p WHERE i = 2", "cannot cast NaN to INTEGER");
    refused("SELECT CAST(d AS SMALLINT) FROM p WHERE i = 2", "cannot cast NaN to SMALLINT");
    refused("SELECT CAST(d AS TINYINT) FROM p WHERE i = 2", "cannot cast NaN to TINYINT");
    refused("SELECT CAST(d AS BIGINT) FROM p WHERE i = 3", "cannot cast Infinity to BIGINT");
    refused("SELECT CAST(r AS INTEGER) FROM p WHERE i = 3", "cannot cast -Infinity to INTEGER");
    refused("SELECT CAST(CAST('Infinity' AS DOUBLE) AS BIGINT)", "cannot cast Infinity to BIGINT");
    refused("SELECT CAST(CAST('-Infinity' AS DOUBLE) AS INTEGER)", "cannot cast -Infinity to INTEGER");
    refused("SELECT CAST(CAST('NaN' AS REAL) AS BIGINT)", "cannot cast NaN to BIGINT");
    refused("SELECT CAST(CAST('NaN' AS DOUBLE) AS DECIMAL(5,1))", "cannot cast NaN to DECIMAL(5, 1)");
    assertThat(query("SELECT CAST(d AS BIGINT), CAST(d AS INTEGER), CAST(r AS SMALLINT) FROM p WHERE i = 1 OR i = 4"
        + " ORDER BY i").rows()).containsExactly(List.of(2L, 2, (short) 2), Arrays.asList(null, null, null));
    // rounded half away from zero, constants and columns alike, like a DECIMAL's cast
    assertThat(query("SELECT CAST(2.5e0 AS INTEGER), CAST(-2.5e0 AS BIGINT), CAST(1.4999999999999998e0 AS SMALLINT),"
        + " CAST(-0.5e0 AS TINYINT), CAST(d AS INTEGER) FROM p WHERE i = 1").rows())
        .containsExactly(List.of(3, -3L, (short) 1, (byte) -1, 2));
    refused("SELECT CAST(2147483647.5e0 AS INTEGER)", "INTEGER overflow");
  }

  @Test
  void roundingADoubleKeepsNanAndInfinity() {
    assertThat(query("SELECT ROUND(d, 400), ROUND(d, 2), ROUND(d), TRUNCATE(d, 400), ROUND(d, -400) FROM p"
        + " ORDER BY i").rows()).containsExactly(
            List.of(1.5, 1.5, 2.0, 1.5, 0.0),
            List.of(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN),
            List.of(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
                Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY),
            Arrays.asList(null, null, null, null, null));
    assertThat(query("SELECT ROUND(CAST('NaN' AS DOUBLE), 400), ROUND(1.25e0, 1), TRUNCATE(-1.25e0, 1),"
        + " ROUND(1234.5e0, -2), ROUND(d, 2000000000), ROUND(d, -2000000000) FROM p WHERE i = 1").rows())
        .containsExactly(List.of(Double.NaN, 1.3, -1.2, 1200.0, 1.5, 0.0));
    assertThat(query("SELECT ROUND(r, 1) FROM p ORDER BY i").rows()).containsExactly(List.of(1.5f),
        List.of(Float.NaN), List.of(Float.NEGATIVE_INFINITY), Arrays.asList((Object) null));
  }

  @Test
  void castsOfDoublesInTheVectorizedExecutorAreCheckedToo() {
    // a grouped aggregate over 12,000 rows in three fragments, the vectorized executor's kind of subtree: its cast
    // would truncate NaN to 0 and Infinity to Long.MAX_VALUE with no range check, so it leaves such casts to Calcite
    for (String cast : List.of("CAST(d AS INTEGER)", "CAST(d AS BIGINT)", "CAST(d AS DECIMAL(5, 1))")) {
      refused("SELECT g, SUM(" + cast + ") FROM many GROUP BY g", "cannot cast");
    }
    assertThat(query("SELECT g, SUM(CAST(d AS INTEGER)) FROM many WHERE d < 100 GROUP BY g ORDER BY g").rows())
        .containsExactly(List.of(0, 6_000L * 2), List.of(1, (6_000L - 3) * 2));
  }

  private void refused(String sql, String message) {
    assertThatThrownBy(() -> query(sql)).as(sql)
        .isInstanceOf(CodedFailure.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(((CodedFailure) e).errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }
}
