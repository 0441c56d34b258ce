package dev.lake.query.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.engine.TableSnapshot;
import dev.lake.query.plan.lance.ColumnStatistics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Distinct-value estimates are kept per version, and a small append (every earlier fragment unchanged) reuses the
 * last sketch instead of sketching the table again; a bigger change, or one that rewrote a fragment, sketches afresh.
 */
class DistinctValueEstimatesTest {
  private static final Schema SCHEMA = new Schema(List.of(Field.notNullable("k", new ArrowType.Int(64, true))));

  @Test
  void aSmallAppendReusesTheLastSketch(@TempDir Path root) {
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine engine = new LanceTableEngine(allocator, Map.of())) {
      String location = root.resolve("t") + "/";
      long v1 = engine.create(location, engine.stage(location, rows(allocator, 0, 10_000, 1)));
      DistinctValueEstimates estimates = new DistinctValueEstimates();
      assertThat(distinct(engine, allocator, estimates, location, v1)).hasValueCloseTo(10_000.0, offset(150.0));

      // 500 more rows, all new values: within 10%, the first sketch answers (the new version is not sketched)
      long v2 = engine.commit(location, v1, new TableChange.Append(engine.stage(location,
          rows(allocator, 10_000, 500, 1))));
      assertThat(distinct(engine, allocator, estimates, location, v2)).hasValueCloseTo(10_000.0, offset(150.0));

      // 5,000 more (over 10% of the sketched rows): sketched again
      long v3 = engine.commit(location, v2, new TableChange.Append(engine.stage(location,
          rows(allocator, 20_000, 5_000, 1))));
      assertThat(distinct(engine, allocator, estimates, location, v3)).hasValueCloseTo(15_500.0, offset(300.0));

      // an overwrite of as many rows but one value repeated: its fragments are new, sketched afresh
      StagedData staged = engine.stage(location, rows(allocator, 7, 15_500, 0));
      long v4 = engine.commit(location, v3, new TableChange.Overwrite(staged));
      assertThat(distinct(engine, allocator, estimates, location, v4)).hasValueCloseTo(1.0, offset(0.5));
    }
  }

  private static OptionalDouble distinct(LanceTableEngine engine, BufferAllocator allocator,
      DistinctValueEstimates estimates, String location, long version) {
    try (TableSnapshot snapshot = engine.open(location, version, allocator);
        QueryResources resources = new QueryResources(allocator, "estimate", Long.MAX_VALUE)) {
      ColumnStatistics statistics = estimates.of(snapshot, resources);
      return statistics.distinctValues(List.of("k"));
    }
  }

  /** {@code count} rows of k = from + i * step. */
  private static ArrowReader rows(BufferAllocator allocator, long from, int count, long step) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    BigIntVector k = (BigIntVector) root.getVector(0);
    k.allocateNew(count);
    for (int i = 0; i < count; i++) {
      k.set(i, from + i * step);
    }
    root.setRowCount(count);
    return new ArrowReader(allocator) {
      private boolean read;

      @Override
      public boolean loadNextBatch() {
        if (read) {
          return false;
        }
        read = true;
        return true;
      }

      @Override
      public VectorSchemaRoot getVectorSchemaRoot() {
        return root;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {
        root.close();
      }

      @Override
      protected Schema readSchema() {
        return SCHEMA;
      }
    };
  }
}
