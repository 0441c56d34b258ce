package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;

class LanceTableSnapshotTest extends EngineTestSupport {

  @Test
  void scanHonoursColumnsFilterAndLimit() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3, 4, 5, 6);

    try (TableSnapshot snapshot = engine.open(location, v1, allocator)) {
      List<List<Object>> filtered = Rows.drain(
          snapshot.scan(List.of("name", "id"), Optional.of("id > 2 AND id <> 5"), Optional.empty(), 2));
      List<List<Object>> limited = Rows.drain(
          snapshot.scan(List.of("id"), Optional.of("id >= 2"), Optional.of(3L), 1024));

      assertThat(filtered).containsExactlyInAnyOrder(
          Rows.row("row-3", 3L), Rows.row("row-4", 4L), Rows.row("row-6", 6L));
      assertThat(limited).hasSize(3).allSatisfy(row -> assertThat((Long) row.get(0)).isGreaterThanOrEqualTo(2));
      assertThat(snapshot.countRows()).isEqualTo(6);
      assertThat(snapshot.version()).isEqualTo(v1);
      assertThat(snapshot.location()).isEqualTo(location);
    }
  }

  @Test
  void fragmentScansReadOneFragmentOrARowRangeOfIt() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3, 4, 5);
    long v2 = appendIds(location, v1, 6, 7, 8);

    try (TableSnapshot snapshot = engine.open(location, v2, allocator)) {
      List<Integer> fragments = snapshot.fragmentIds();
      assertThat(fragments).hasSize(2);
      assertThat(snapshot.fragmentRows(fragments.get(0))).isEqualTo(5);
      assertThat(snapshot.fragmentRows(fragments.get(1))).isEqualTo(3);
      List<List<Object>> second = Rows.drain(snapshot.scanFragments(List.of("id"), Optional.empty(),
          List.of(fragments.get(1)), 0, Optional.empty(), 1024));
      List<List<Object>> range = Rows.drain(snapshot.scanFragments(List.of("id"), Optional.empty(),
          List.of(fragments.get(0)), 1, Optional.of(3L), 1024));
      List<List<Object>> filtered = Rows.drain(snapshot.scanFragments(List.of("id"), Optional.of("id > 6"),
          List.of(fragments.get(1)), 0, Optional.empty(), 1024));

      assertThat(second).containsExactly(Rows.row(6L), Rows.row(7L), Rows.row(8L));
      assertThat(range).containsExactly(Rows.row(2L), Rows.row(3L), Rows.row(4L));
      assertThat(filtered).containsExactly(Rows.row(7L), Rows.row(8L));
    }
  }

  @Test
  void scanBatchesRespectTheBatchSize() throws IOException {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3, 4, 5);

    try (TableSnapshot snapshot = engine.open(location, v1, allocator);
        ArrowReader reader = snapshot.scan(List.of(), Optional.empty(), Optional.empty(), 2)) {
      int maxBatch = 0;
      int total = 0;
      while (reader.loadNextBatch()) {
        int rows = reader.getVectorSchemaRoot().getRowCount();
        maxBatch = Math.max(maxBatch, rows);
        total += rows;
      }
      assertThat(maxBatch).isLessThanOrEqualTo(2);
      assertThat(total).isEqualTo(5);
    }
  }

  @Test
  void badFiltersColumnsAndSqlAreInvalidExpressions() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2);

    try (TableSnapshot snapshot = engine.open(location, v1, allocator)) {
      assertThatThrownBy(() -> Rows.drain(snapshot.scan(List.of(), Optional.of("id >>> 3"), Optional.empty(), 8)))
          .isInstanceOf(InvalidExpressionException.class)
          .hasMessageContaining("filter=[id >>> 3]")
          .hasMessageNotContaining("/workspace/rust");
      assertThatThrownBy(() -> Rows.drain(snapshot.scan(List.of(), Optional.of("nope = 1"), Optional.empty(), 8)))
          .isInstanceOf(InvalidExpressionException.class)
          .hasMessageContaining("nope");
      assertThatThrownBy(() -> Rows.drain(snapshot.scan(List.of("zz"), Optional.empty(), Optional.empty(), 8)))
          .isInstanceOf(InvalidExpressionException.class)
          .hasMessageContaining("zz");
      assertThatThrownBy(() -> Rows.drain(snapshot.sql("SELEC id FROM t", "t")))
          .isInstanceOf(InvalidExpressionException.class);
      assertThatThrownBy(() -> Rows.drain(snapshot.sql("SELECT missing FROM t", "t")))
          .isInstanceOf(InvalidExpressionException.class);
    }
  }

  @Test
  void aBatchPastItsAllocatorsLimitIsAMemoryFailureNotABadExpression() {
    // what Arrow's C-data import throws when a scan batch does not fit the query's allocator (seen from a query
    // past query.memory-limit); a real one leaks Arrow's imported array struct (128 bytes), so it is built here
    Throwable failure = new IllegalArgumentException("Could not load buffers for field o_orderdate: Date(DAY) not null."
        + " error message: Unable to allocate buffer of size 262144 due to memory limit",
        new org.apache.arrow.memory.OutOfMemoryException("Unable to allocate buffer of size 262144 due to memory limit"));

    EngineException translated = LanceErrors.translate("scan of version 1", LanceLocation.of(newLocation("t")), failure,
        LanceErrors.Input.EXPRESSION);

    assertThat(translated).isNotInstanceOf(InvalidExpressionException.class)
        .hasMessageContaining("memory limit was reached")
        .hasMessageNotContaining("Fix the filter")
        .hasRootCauseInstanceOf(org.apache.arrow.memory.OutOfMemoryException.class);
  }

  @Test
  void sqlSeesOnlyThePinnedVersion() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2);
    long v2 = appendIds(location, v1, 3, 4, 5);

    try (TableSnapshot first = engine.open(location, v1, allocator);
        TableSnapshot second = engine.open(location, v2, allocator)) {
      assertThat(Rows.drain(first.sql("SELECT count(*) AS n, sum(id) AS s FROM t", "t")))
          .containsExactly(Rows.row(2L, 3L));
      assertThat(Rows.drain(second.sql("SELECT count(*) AS n, sum(id) AS s FROM t", "t")))
          .containsExactly(Rows.row(5L, 15L));
      assertThat(Rows.drain(first.sql("SELECT name FROM my_table WHERE id = 2", "my_table")))
          .containsExactly(Rows.row("row-2"));
    }
  }

  @Test
  void droppedTablesCannotBeScannedOrOpenedAndDropIsIdempotent() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3);

    try (TableSnapshot held = engine.open(location, v1, allocator)) {
      engine.drop(location);

      assertThat(engine.exists(location)).isFalse();
      assertThatThrownBy(() -> Rows.drain(held.scan(List.of(), Optional.empty(), Optional.empty(), 8)))
          .isInstanceOf(DatasetNotFoundException.class);
    }
    assertThatThrownBy(() -> engine.open(location, v1, allocator)).isInstanceOf(DatasetNotFoundException.class);
    engine.drop(location);
  }

  @Test
  void openHandlesReturnToZeroWhenASnapshotIsClosedWithReadersStillOpen() throws IOException {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2, 3, 4, 5);
    assertThat(engine.openHandles()).isZero();

    TableSnapshot snapshot = engine.open(location, v1, allocator);
    ArrowReader scan = snapshot.scan(List.of(), Optional.empty(), Optional.empty(), 1);
    ArrowReader sql = snapshot.sql("SELECT id FROM t", "t");
    assertThat(scan.loadNextBatch()).isTrue();
    // the lease on the kept dataset + scanner + scan reader + the dataset SQL runs on (opened in the snapshot's
    // allocator, where Lance puts SQL results) + SQL reader
    assertThat(engine.openHandles()).as("lease + scanner + scan reader + SQL's dataset + SQL reader").isEqualTo(5);

    snapshot.close();

    assertThat(engine.openHandles()).isZero();
    scan.close();
    sql.close();
    assertThat(engine.openHandles()).isZero();
  }

  @Test
  void cancellingFromAnotherThreadWhileBatchesAreReadEndsTheReaderCleanly() throws Exception {
    String location = newLocation("t");
    long[] ids = new long[2000];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    long v1 = createWithIds(location, ids);
    TableSnapshot snapshot = engine.open(location, v1, allocator);
    ArrowReader reader = snapshot.scan(List.of(), Optional.empty(), Optional.empty(), 1);
    java.util.concurrent.CountDownLatch firstBatch = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicReference<Throwable> readerOutcome =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread consumer = new Thread(() -> {
      try {
        while (reader.loadNextBatch()) {
          firstBatch.countDown();
        }
      } catch (Throwable t) {
        readerOutcome.set(t);
      } finally {
        firstBatch.countDown();
      }
    }, "test-consumer");
    consumer.start();

    firstBatch.await();
    snapshot.close();
    consumer.join();

    assertThat(engine.openHandles()).isZero();
    assertThat(readerOutcome.get()).as("the consumer either finished or saw a clean engine error")
        .satisfiesAnyOf(t -> assertThat(t).isNull(), t -> assertThat(t).isInstanceOf(EngineException.class));
  }

  @Test
  void closingReadersGivesTheirHandlesBackBeforeTheSnapshotCloses() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1, 2);

    try (TableSnapshot snapshot = engine.open(location, v1, allocator)) {
      Rows.drain(snapshot.scan(List.of(), Optional.empty(), Optional.empty(), 8));
      Rows.drain(snapshot.sql("SELECT * FROM t", "t"));
      assertThat(engine.openHandles()).as("only the lease and SQL's dataset").isEqualTo(2);
    }
    assertThat(engine.openHandles()).isZero();
  }

  @Test
  void aClosedSnapshotRefusesNewScans() {
    String location = newLocation("t");
    long v1 = createWithIds(location, 1);
    TableSnapshot snapshot = engine.open(location, v1, allocator);
    snapshot.close();

    assertThatThrownBy(() -> snapshot.scan(List.of(), Optional.empty(), Optional.empty(), 8))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }
}
