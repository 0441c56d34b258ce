package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * A CAST of a constant rounds like the same CAST of a column (half up, away from zero; docs/api.md, "Exactness").
 * Calcite folds casts of constants while it plans, rounding as the type system says: a pyarrow client saw
 * {@code CAST(12345.675 AS DECIMAL(9,2))} answer 12345.67 and {@code CAST(2.5 AS INTEGER)} answer 2, where the same
 * casts of a column's values answer 12345.68 and 3.
 */
class ConstantCastsTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(32, true)),
      Field.nullable("x", new ArrowType.Decimal(10, 3, 128))));
  private static final List<String> VALUES = List.of("12345.675", "-12345.675", "0.005", "-0.005", "2.500", "-2.500",
      "1.499", "2.000");

  @Override
  void createTables() {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < VALUES.size(); i++) {
      rows.add(List.of(i, new BigDecimal(VALUES.get(i))));
    }
    createTable("v", SCHEMA, rows);
  }

  @Test
  void castsOfConstantsRoundHalfUpAsCastsOfColumnsDo() {
    for (int i = 0; i < VALUES.size(); i++) {
      String value = VALUES.get(i);
      List<Object> constant = query("SELECT CAST(" + value + " AS DECIMAL(9, 2)), CAST(" + value + " AS INTEGER),"
          + " CAST(CAST(" + value + " AS DECIMAL(10, 3)) AS BIGINT)").rows().get(0);
      List<Object> column = query("SELECT CAST(x AS DECIMAL(9, 2)), CAST(x AS INTEGER), CAST(x AS BIGINT) FROM v"
          + " WHERE id = " + i).rows().get(0);
      BigDecimal exact = new BigDecimal(value);
      List<Object> halfUp = List.of(exact.setScale(2, java.math.RoundingMode.HALF_UP),
          exact.setScale(0, java.math.RoundingMode.HALF_UP).intValueExact(),
          exact.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact());
      assertThat(constant).as("casts of the constant " + value).isEqualTo(halfUp);
      assertThat(column).as("casts of the column value " + value).isEqualTo(halfUp);
    }
  }

  @Test
  void decimalDivisionOfConstantsIsTheDivisionOfColumns() {
    // the table holds 2.000 as row id 7 (added below); Calcite folded constant division to 16 significant digits,
    // truncated, where lake's runtime rounds half up at the result's scale
    for (String divisor : List.of("3", "7", "-3", "CAST(3 AS DECIMAL(5, 1))")) {
      Object constant = query("SELECT CAST(2.000 AS DECIMAL(10, 3)) / " + divisor).rows().get(0).get(0);
      Object column = query("SELECT x / " + divisor + " FROM v WHERE id = 7").rows().get(0).get(0);
      assertThat(constant).as("2.000 / " + divisor).isEqualTo(column);
      BigDecimal quotient = (BigDecimal) column;
      BigDecimal expected = new BigDecimal("2.000").divide(new BigDecimal(divisor.startsWith("CAST") ? "3" : divisor),
          quotient.scale(), java.math.RoundingMode.HALF_UP);
      assertThat(quotient).as("2.000 / " + divisor).isEqualTo(expected);
    }
    // more significant digits than Calcite's folding kept (16)
    BigDecimal big = (BigDecimal) query("SELECT CAST(12345678901234567890.00 AS DECIMAL(38, 2)) / 7").rows().get(0)
        .get(0);
    assertThat(big).isEqualTo(new BigDecimal("12345678901234567890.00").divide(BigDecimal.valueOf(7), big.scale(),
        java.math.RoundingMode.HALF_UP));
  }
}
