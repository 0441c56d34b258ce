package dev.lake.query.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.engine.ForwardingTableSnapshot;
import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.TableChange;
import dev.lake.engine.TableSnapshot;
import dev.lake.query.guard.QueryGuard;
import dev.lake.query.guard.QueryStoppedException;
import dev.lake.registry.error.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wide table's scan by row ranges and column groups ({@link WideScan}) over a real Lance table of two fragments:
 * the values equal a narrow reading's, in row order; limits and fragment ranges hold; a stopped query stops between
 * two column groups.
 */
class WideScanTest {
  /** Three groups: 256, 256 and 88 columns. */
  private static final int COLUMNS = 600;
  private static final int FIRST_ROWS = 30;
  private static final int MORE_ROWS = 25;
  private static final int ROWS = FIRST_ROWS + MORE_ROWS;

  @TempDir
  Path dir;

  private BufferAllocator allocator;
  private LanceTableEngine engine;
  private String location;
  private long version;

  @BeforeEach
  void createTable() {
    allocator = new RootAllocator();
    engine = new LanceTableEngine(allocator, Map.of());
    location = dir.resolve("wide") + "/";
    long v1 = engine.create(location, engine.stage(location, rows(0, FIRST_ROWS)));
    version = engine.commit(location, v1, new TableChange.Append(engine.stage(location, rows(FIRST_ROWS,
        MORE_ROWS))));
  }

  @AfterEach
  void close() {
    assertThat(engine.openHandles()).as("open Lance handles after the test").isZero();
    engine.close();
    assertThat(allocator.getAllocatedMemory()).as("Arrow memory left allocated").isZero();
    allocator.close();
  }

  @Test
  void wideScansReadColumnGroupsExactly() throws Exception {
    try (QueryResources resources = new QueryResources(allocator, "q", Long.MAX_VALUE)) {
      TableSnapshot snapshot = engine.open(location, version, resources.allocator());
      try {
        LanceScanSource source = new LanceScanSource(snapshot, resources, 16, new PushdownCounters(), null);
        List<String> all = names(COLUMNS);
        // every column, in table order; then a projection in another order across the groups
        ArrowReader wide = source.batches(all, Optional.empty(), Optional.empty());
        assertThat(wide).as("a scan of a table of more than 256 columns without a filter")
            .isInstanceOf(WideScan.class);
        List<long[]> rows = read(wide, resources, 16);
        assertThat(rows).hasSize(ROWS);
        for (int r = 0; r < ROWS; r++) {
          for (int c = 0; c < COLUMNS; c++) {
            assertThat(rows.get(r)[c]).as("row %d column %d", r, c).isEqualTo(value(r, c));
          }
        }
        List<String> some = List.of("c599", "c0", "c256", "c255", "c300");
        List<long[]> projected = read(source.batches(some, Optional.empty(), Optional.empty()), resources, 16);
        // the same columns read the narrow way: one Lance scanner with its projection (the table is not that wide)
        List<long[]> narrow = read(resources.track(snapshot.scan(some, Optional.empty(), Optional.empty(), 1000)),
            resources, Integer.MAX_VALUE);
        assertThat(projected).usingRecursiveComparison().isEqualTo(narrow);
        assertThat(projected.get(ROWS - 1)).containsExactly(value(ROWS - 1, 599), value(ROWS - 1, 0),
            value(ROWS - 1, 256), value(ROWS - 1, 255), value(ROWS - 1, 300));
        // a limit reads the first rows only
        assertThat(read(source.batches(all, Optional.empty(), Optional.of(5L)), resources, 16)).hasSize(5);
        // a filter is Lance's to apply: that scan is not read by column groups, and answers the same values
        ArrowReader filtered = source.batches(some, Optional.of("c0 >= " + value(FIRST_ROWS, 0)), Optional.empty());
        assertThat(filtered).isNotInstanceOf(WideScan.class);
        assertThat(read(filtered, resources, Integer.MAX_VALUE)).usingRecursiveComparison()
            .isEqualTo(narrow.subList(FIRST_ROWS, ROWS));
        // the second fragment from its third row, at most 10 rows: rows 33..42 of the table
        List<Integer> fragments = snapshot.fragmentIds();
        assertThat(fragments).hasSize(2);
        WideScan part = WideScan.ofFragments(snapshot, resources, all, List.of(fragments.get(1)), 3,
            Optional.of(10L), 16).orElseThrow();
        List<long[]> partRows = read(resources.track(part), resources, 16);
        assertThat(partRows).hasSize(10);
        assertThat(partRows.get(0)[7]).isEqualTo(value(FIRST_ROWS + 3, 7));
        assertThat(partRows.get(9)[599]).isEqualTo(value(FIRST_ROWS + 12, 599));
        // fragments out of the version's order are left to Lance's scanner
        assertThat(WideScan.ofFragments(snapshot, resources, all, List.of(fragments.get(1), fragments.get(0)), 0,
            Optional.empty(), 16)).isEmpty();
      } finally {
        snapshot.close();
      }
    }
  }

  @Test
  void aStoppedQueryStopsBetweenColumnGroups() throws Exception {
    QueryGuard guard = new QueryGuard();
    try (QueryResources resources = new QueryResources(allocator, "q", Long.MAX_VALUE, guard);
        TableSnapshot snapshot = engine.open(location, version, resources.allocator())) {
      AtomicInteger reads = new AtomicInteger();
      // the real snapshot; the deadline passes while the first group is read (a fake only to steer time)
      TableSnapshot timed = new ForwardingTableSnapshot(snapshot) {
        @Override
        public ArrowReader readRows(List<String> columns, long offset, int count) {
          reads.incrementAndGet();
          ArrowReader rows = super.readRows(columns, offset, count);
          guard.stop(ErrorCode.DEADLINE_EXCEEDED, "the query ran past query.timeout");
          return rows;
        }
      };
      WideScan scan = new WideScan(timed, resources, names(COLUMNS), 0, ROWS, 16);
      resources.track(scan);
      Throwable stopped = catchThrowable(scan::loadNextBatch);
      assertThat(stopped).isInstanceOf(QueryStoppedException.class).hasMessageContaining("query.timeout");
      assertThat(reads.get()).as("Lance calls made: the first group's, none after the stop").isEqualTo(1);
      resources.release(scan);
    }
  }

  private static List<String> names(int columns) {
    List<String> names = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      names.add("c" + c);
    }
    return names;
  }

  private static long value(int row, int column) {
    return (long) row * COLUMNS + column;
  }

  /** All rows of {@code reader} (BIGINT columns), checking each batch holds at most {@code batchRows}. */
  private static List<long[]> read(ArrowReader reader, QueryResources resources, int batchRows) throws Exception {
    List<long[]> rows = new ArrayList<>();
    try {
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        assertThat(root.getRowCount()).isLessThanOrEqualTo(batchRows);
        for (int r = 0; r < root.getRowCount(); r++) {
          long[] row = new long[root.getFieldVectors().size()];
          for (int c = 0; c < row.length; c++) {
            row[c] = ((BigIntVector) root.getVector(c)).get(r);
          }
          rows.add(row);
        }
      }
    } finally {
      resources.release(reader);
    }
    return rows;
  }

  /** Rows {@code first..first+count-1} of the table: value {@code row * COLUMNS + column}. */
  private ArrowReader rows(int first, int count) {
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < COLUMNS; c++) {
      fields.add(Field.nullable("c" + c, new ArrowType.Int(64, true)));
    }
    Schema schema = new Schema(fields);
    return new ArrowReader(allocator) {
      private boolean done;

      @Override
      public boolean loadNextBatch() throws java.io.IOException {
        if (done) {
          return false;
        }
        done = true;
        VectorSchemaRoot root = getVectorSchemaRoot();
        root.allocateNew();
        for (int c = 0; c < COLUMNS; c++) {
          BigIntVector v = (BigIntVector) root.getVector(c);
          for (int r = 0; r < count; r++) {
            v.setSafe(r, value(first + r, c));
          }
        }
        root.setRowCount(count);
        return true;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {}

      @Override
      protected Schema readSchema() {
        return schema;
      }
    };
  }
}
