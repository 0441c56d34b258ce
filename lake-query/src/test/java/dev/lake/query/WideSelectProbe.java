package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Not a test: prints how long {@code SELECT *} of a 10,000-column, 200-row table takes to plan and run in process
 * (by hand: {@code -Dtest=WideSelectProbe}); the figure in verification/report.md, issue 17 session 6.
 */
class WideSelectProbe extends LakeTestSupport {
  private static final int COLUMNS = 10_000;
  private static final int ROWS = 200;

  @Override
  void createTables() {
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < COLUMNS; c++) {
      fields.add(Field.nullable("c" + c, new ArrowType.Int(64, true)));
    }
    List<List<Object>> rows = new ArrayList<>();
    for (int r = 0; r < ROWS; r++) {
      List<Object> row = new ArrayList<>(COLUMNS);
      for (int c = 0; c < COLUMNS; c++) {
        row.add((long) r * COLUMNS + c);
      }
      rows.add(row);
    }
    long t0 = System.nanoTime();
    createTable("wide", new Schema(fields), rows);
    System.out.printf("WideSelectProbe: created %d x %d in %d ms%n", COLUMNS, ROWS,
        (System.nanoTime() - t0) / 1_000_000);
  }

  @Test
  void timings() {
    for (int run = 1; run <= 3; run++) {
      long t0 = System.nanoTime();
      Result result = query("SELECT * FROM wide");
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertThat(result.rows()).hasSize(ROWS);
      assertThat(result.rows().get(ROWS - 1).get(COLUMNS - 1)).isEqualTo((long) ROWS * COLUMNS - 1);
      System.out.printf("WideSelectProbe: SELECT * FROM wide (plan, run, collect) run %d: %d ms%n", run, ms);
    }
  }
}
