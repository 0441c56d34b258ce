package dev.lake.query.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.lake.engine.ForwardingTableSnapshot;
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
 * Sketches kept in a directory ({@link KeptSketches}) answer after a restart exactly as a new sketch would, without
 * one, and are never applied to data they were not computed over.
 */
class DistinctValueEstimatesTest {
  private static final Schema SCHEMA = new Schema(List.of(Field.notNullable("k", new ArrowType.Int(64, true))));
  private static final Schema PAIRS = new Schema(List.of(Field.notNullable("k", new ArrowType.Int(64, true)),
      Field.notNullable("j", new ArrowType.Int(64, true))));

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

  @Test
  void keptSketchesAnswerAfterARestartAsARecomputedSketchWould(@TempDir Path root) throws Exception {
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine engine = new LanceTableEngine(allocator, Map.of())) {
      String location = root.resolve("t") + "/";
      long v1 = engine.create(location, engine.stage(location, pairs(allocator, 0, 20_000)));
      Path kept = root.resolve("statistics");
      Sketches first = Sketches.estimate(engine, allocator, new DistinctValueEstimates(KeptSketches.open(kept)),
          location, v1);
      assertThat(first.sqlCalls).isEqualTo(2);

      // a restart: a new service over the same directory answers both column sets without a sketch
      Sketches restarted = Sketches.estimate(engine, allocator,
          new DistinctValueEstimates(KeptSketches.open(kept)), location, v1);
      assertThat(restarted.sqlCalls).isZero();
      Sketches recomputed = Sketches.estimate(engine, allocator, new DistinctValueEstimates(), location, v1);
      assertThat(recomputed.sqlCalls).isEqualTo(2);
      assertThat(restarted.k).isEqualTo(recomputed.k).isEqualTo(first.k);
      assertThat(restarted.pair).isEqualTo(recomputed.pair).isEqualTo(first.pair);
      assertThat(first.k.getAsDouble()).isCloseTo(20_000.0, offset(400.0));
      assertThat(first.pair.getAsDouble()).isCloseTo(20_000.0, offset(400.0));
    }
  }

  @Test
  void keptSketchesAreNotAppliedToChangedData(@TempDir Path root) throws Exception {
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine engine = new LanceTableEngine(allocator, Map.of())) {
      String location = root.resolve("t") + "/";
      Path kept = root.resolve("statistics");
      long v1 = engine.create(location, engine.stage(location, pairs(allocator, 0, 10_000)));
      Sketches.estimate(engine, allocator, new DistinctValueEstimates(KeptSketches.open(kept)), location, v1);

      // an append of more than 10% of the rows, then a restart: sketched again, as a fresh service would
      long v2 = engine.commit(location, v1, new TableChange.Append(engine.stage(location,
          pairs(allocator, 10_000, 5_000))));
      Sketches appended = Sketches.estimate(engine, allocator, new DistinctValueEstimates(KeptSketches.open(kept)),
          location, v2);
      assertThat(appended.sqlCalls).isEqualTo(2);
      Sketches appendedFresh = Sketches.estimate(engine, allocator, new DistinctValueEstimates(), location, v2);
      assertThat(appended.k).isEqualTo(appendedFresh.k);
      assertThat(appended.pair).isEqualTo(appendedFresh.pair);
      assertThat(appended.k.getAsDouble()).isCloseTo(15_000.0, offset(300.0));

      // an overwrite with as many rows but one key repeated: its fragments are new, so no kept sketch applies
      long v3 = engine.commit(location, v2, new TableChange.Overwrite(engine.stage(location,
          rows(allocator, 7, 15_000, 0))));
      Sketches overwritten = Sketches.estimate(engine, allocator,
          new DistinctValueEstimates(KeptSketches.open(kept)), location, v3, List.of("k"));
      assertThat(overwritten.sqlCalls).isEqualTo(1);
      assertThat(overwritten.k).isEqualTo(Sketches.estimate(engine, allocator, new DistinctValueEstimates(),
          location, v3, List.of("k")).k);
      assertThat(overwritten.k.getAsDouble()).isCloseTo(1.0, offset(0.5));

      // the older version still reads its own rows: after another restart the kept sketch of v3 does not answer it
      Sketches older = Sketches.estimate(engine, allocator, new DistinctValueEstimates(KeptSketches.open(kept)),
          location, v2, List.of("k"));
      assertThat(older.sqlCalls).isEqualTo(1);
      assertThat(older.k).isEqualTo(appendedFresh.k);
    }
  }

  @Test
  void aSetOfColumnsIsEstimatedFromItsColumnsSketchesWithoutASketchOfItsOwn(@TempDir Path root) {
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine engine = new LanceTableEngine(allocator, Map.of())) {
      String location = root.resolve("t") + "/";
      long v1 = engine.create(location, engine.stage(location, pairs(allocator, 0, 20_000)));
      try (TableSnapshot opened = engine.open(location, v1, allocator);
          QueryResources resources = new QueryResources(allocator, "estimate", Long.MAX_VALUE)) {
        CountingSnapshot snapshot = new CountingSnapshot(opened);
        ColumnStatistics statistics = new DistinctValueEstimates().of(snapshot, resources);
        double k = statistics.distinctValues(List.of("k")).getAsDouble();
        double j = statistics.distinctValues(List.of("j")).getAsDouble();
        assertThat(j).isCloseTo(7.0, offset(0.5));
        // (k, j) and (j, k): the product of the columns' estimates, at most the rows — no sketch of the set
        assertThat(statistics.distinctValues(List.of("k", "j"))).hasValue(Math.min(k * j, 20_000));
        assertThat(statistics.distinctValues(List.of("j", "k"))).hasValue(Math.min(k * j, 20_000));
        assertThat(snapshot.sqlCalls).isEqualTo(2);
      }
    }
  }

  @Test
  void aDecimalColumnIsSketchedAndServesTheSetsItIsIn(@TempDir Path root) {
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine engine = new LanceTableEngine(allocator, Map.of())) {
      String location = root.resolve("t") + "/";
      long v1 = engine.create(location, engine.stage(location, decimals(allocator, 10_000)));
      try (TableSnapshot opened = engine.open(location, v1, allocator);
          QueryResources resources = new QueryResources(allocator, "estimate", Long.MAX_VALUE)) {
        CountingSnapshot snapshot = new CountingSnapshot(opened);
        ColumnStatistics statistics = new DistinctValueEstimates().of(snapshot, resources);
        // d = i % 50 as DECIMAL(15,2) (0.00 .. 0.49): 50 values
        OptionalDouble d = statistics.distinctValues(List.of("d"));
        assertThat(d).hasValueCloseTo(50.0, offset(1.0));
        OptionalDouble k = statistics.distinctValues(List.of("k"));
        assertThat(statistics.distinctValues(List.of("k", "d")))
            .hasValue(Math.min(k.getAsDouble() * d.getAsDouble(), 10_000));
        assertThat(snapshot.sqlCalls).isEqualTo(2);
      }
    }
  }

  /** {@code count} rows of k = i and d = (i % 50) / 100 as DECIMAL(15,2). */
  private static ArrowReader decimals(BufferAllocator allocator, int count) {
    Schema schema = new Schema(List.of(Field.notNullable("k", new ArrowType.Int(64, true)),
        Field.notNullable("d", new ArrowType.Decimal(15, 2, 128))));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    BigIntVector k = (BigIntVector) root.getVector(0);
    org.apache.arrow.vector.DecimalVector d = (org.apache.arrow.vector.DecimalVector) root.getVector(1);
    k.allocateNew(count);
    d.allocateNew(count);
    for (int i = 0; i < count; i++) {
      k.set(i, i);
      d.set(i, java.math.BigDecimal.valueOf(i % 50, 2));
    }
    root.setRowCount(count);
    return reader(allocator, root, schema);
  }

  @Test
  void aTornLineIsSkipped(@TempDir Path root) throws Exception {
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine engine = new LanceTableEngine(allocator, Map.of())) {
      String location = root.resolve("t") + "/";
      Path kept = root.resolve("statistics");
      long v1 = engine.create(location, engine.stage(location, pairs(allocator, 0, 1_000)));
      Sketches first = Sketches.estimate(engine, allocator, new DistinctValueEstimates(KeptSketches.open(kept)),
          location, v1);
      java.nio.file.Files.writeString(kept.resolve("distinct-values.txt"), "v1 torn li",
          java.nio.file.StandardOpenOption.APPEND);
      Sketches restarted = Sketches.estimate(engine, allocator,
          new DistinctValueEstimates(KeptSketches.open(kept)), location, v1);
      assertThat(restarted.sqlCalls).isZero();
      assertThat(restarted.k).isEqualTo(first.k);
    }
  }

  /** The estimates of k and of (k, j) on one version, and how many Lance SQL statements they ran. */
  private record Sketches(OptionalDouble k, OptionalDouble pair, int sqlCalls) {
    static Sketches estimate(LanceTableEngine engine, BufferAllocator allocator, DistinctValueEstimates estimates,
        String location, long version) {
      return estimate(engine, allocator, estimates, location, version, List.of("k", "j"));
    }

    static Sketches estimate(LanceTableEngine engine, BufferAllocator allocator, DistinctValueEstimates estimates,
        String location, long version, List<String> columns) {
      try (TableSnapshot opened = engine.open(location, version, allocator);
          QueryResources resources = new QueryResources(allocator, "estimate", Long.MAX_VALUE)) {
        CountingSnapshot snapshot = new CountingSnapshot(opened);
        ColumnStatistics statistics = estimates.of(snapshot, resources);
        OptionalDouble k = statistics.distinctValues(List.of("k"));
        OptionalDouble pair = columns.size() > 1 ? statistics.distinctValues(columns) : OptionalDouble.empty();
        return new Sketches(k, pair, snapshot.sqlCalls);
      }
    }
  }

  /** A real Lance snapshot whose SQL statements (the sketches) are counted. */
  private static final class CountingSnapshot extends ForwardingTableSnapshot {
    private int sqlCalls;

    CountingSnapshot(TableSnapshot snapshot) {
      super(snapshot);
    }

    @Override
    public ArrowReader sql(String sql, String tableName) {
      sqlCalls++;
      return super.sql(sql, tableName);
    }

    @Override
    public void close() {
      // the opened snapshot is closed by its owner
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

  /** {@code count} rows of k = from + i and j = (from + i) % 7: (k, j) has as many combinations as k. */
  private static ArrowReader pairs(BufferAllocator allocator, long from, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(PAIRS, allocator);
    BigIntVector k = (BigIntVector) root.getVector(0);
    BigIntVector j = (BigIntVector) root.getVector(1);
    k.allocateNew(count);
    j.allocateNew(count);
    for (int i = 0; i < count; i++) {
      k.set(i, from + i);
      j.set(i, (from + i) % 7);
    }
    root.setRowCount(count);
    return reader(allocator, root, PAIRS);
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
    return reader(allocator, root, SCHEMA);
  }

  private static ArrowReader reader(BufferAllocator allocator, VectorSchemaRoot root, Schema schema) {
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
        return schema;
      }
    };
  }
}
