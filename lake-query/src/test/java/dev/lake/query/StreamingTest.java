package dev.lake.query;

import dev.lake.query.model.TablePin;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Results stream batch by batch, on both paths, and closing a stream early releases everything it held. */
class StreamingTest extends LakeTestSupport {
  private static final int ROWS = 1_000;
  private static final int BATCH = 100;
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withBatchSize(BATCH);
  }

  @Override
  void createTables() {
    List<List<Object>> rows = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      rows.add(Rows.row(i, "row-" + i));
    }
    createTable("big", SCHEMA, rows);
  }

  @Test
  void passThroughResultBiggerThanOneBatchStreamsInSeveralBatches() {
    Result result = query("SELECT id, name FROM big");
    assertThat(result.rows()).hasSize(ROWS);
    assertThat(result.batchSizes()).hasSizeGreaterThanOrEqualTo(ROWS / BATCH).allMatch(size -> size <= BATCH);
  }

  @Test
  void calciteResultBiggerThanOneBatchStreamsInSeveralBatches() {
    Result result = query("SELECT id * 2 AS twice, CHAR_LENGTH(name) AS len FROM big");
    assertThat(result.rows()).hasSize(ROWS);
    assertThat(result.batchSizes()).hasSize(ROWS / BATCH).allMatch(size -> size == BATCH);
    assertThat(result.column(0)).contains(1_998L);
  }

  @Test
  void lanceSqlResultBiggerThanOneBatchStreamsInBatchesOfAtMostTheBatchSize() {
    Result result = query("SELECT id * 2 AS twice, UPPER(name) AS up FROM big");
    assertThat(result.rows()).hasSize(ROWS);
    assertThat(result.batchSizes()).hasSizeGreaterThanOrEqualTo(ROWS / BATCH).allMatch(size -> size <= BATCH);
    assertThat(result.column(0)).contains(1_998L);
    assertThat(result.column(1)).contains("ROW-999");
  }

  @Test
  void closingAfterTheFirstBatchReleasesScansSnapshotsAndMemory() throws Exception {
    Map<String, TablePin> pins = service.prepare("SELECT * FROM big").pins();
    for (String sql : List.of("SELECT id, name FROM big", "SELECT id + 1 FROM big",
        "SELECT name FROM big ORDER BY id")) {
      ArrowReader reader = service.execute(sql, pins, List.of(), allocator);
      assertThat(reader.loadNextBatch()).isTrue();
      assertThat(reader.getVectorSchemaRoot().getRowCount()).isPositive();
      assertThat(engine.openHandles()).isPositive();
      reader.close();
      assertThat(engine.openHandles()).as("Lance handles after closing %s", sql).isZero();
      assertThat(allocator.getAllocatedMemory()).as("memory after closing %s", sql).isZero();
    }
  }

  @Test
  void concurrentStatementsDoNotInterfere() throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Long>> sums = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        String sql = i % 2 == 0 ? "SELECT id FROM big WHERE id >= " + i : "SELECT id + 0 FROM big WHERE id >= " + i;
        long from = i;
        sums.add(pool.submit(() -> {
          long total = 0;
          for (Object id : query(sql).column(0)) {
            total += (Long) id;
          }
          return total - (ROWS - from) * (ROWS - 1 + from) / 2;
        }));
      }
      for (java.util.concurrent.Future<Long> difference : sums) {
        assertThat(difference.get()).isZero();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void closingBeforeReadingReleasesEverything() throws Exception {
    Map<String, TablePin> pins = service.prepare("SELECT * FROM big").pins();
    service.execute("SELECT COUNT(*) FROM big", pins, List.of(), allocator).close();
    service.execute("SELECT * FROM big", pins, List.of(), allocator).close();
    assertThat(engine.openHandles()).isZero();
  }
}
