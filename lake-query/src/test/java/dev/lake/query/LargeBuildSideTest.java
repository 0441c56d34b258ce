package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.StagedData;
import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.query.spill.SpillOptions;
import dev.lake.registry.TableRegistration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, SF 10's Q9: a join whose build side is estimated at millions of rows (TPC-H SF 10's orders, 15 M, and
 * partsupp, 8 M) runs in the vectorized executor, whose build sides spill past the query's memory limit, and not in
 * Calcite's row runtime, whose hash joins keep every build row on the heap and fail for memory. Here a build table of
 * 4.2 M rows (more than the 4 M rows the planner used to allow a vectorized build side) joined from a larger one at
 * {@code query.memory-limit} 64 MB under {@code query.executor=auto}: EXPLAIN shows the vectorized join, the build side
 * spills, and the answer equals the one computed here from the generated values.
 */
class LargeBuildSideTest extends LakeTestSupport {
  private static final int BUILD_ROWS = 4_200_000;
  private static final int PROBE_ROWS = 4_600_000;
  /** Probe keys range over more than the build's keys: about one in eleven finds no match. */
  private static final long KEY_RANGE = BUILD_ROWS + BUILD_ROWS / 10;
  private static final int GROUPS = 5;
  private static final int BATCH = 65_536;
  private static final Schema BUILD = new Schema(List.of(
      Field.notNullable("k", new ArrowType.Int(64, true)),
      Field.notNullable("v", new ArrowType.Int(64, true))));
  private static final Schema PROBE = new Schema(List.of(
      Field.notNullable("fk", new ArrowType.Int(64, true)),
      Field.notNullable("g", new ArrowType.Int(32, true))));
  private static final String SQL = "SELECT p.g, COUNT(*) AS n, SUM(b.v) AS total FROM big_probe p"
      + " JOIN big_build b ON p.fk = b.k GROUP BY p.g ORDER BY p.g";

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withExecutor(SubtreeExecutor.AUTO).withMemoryLimit(64L << 20)
        .withSpill(new SpillOptions(dataRoot.resolve("spill"), 1L << 30, 1L << 30));
  }

  @Override
  void createTables() {
    create("big_build", BUILD, BUILD_ROWS, (root, at, row) -> {
      ((BigIntVector) root.getVector(0)).setSafe(at, row);
      ((BigIntVector) root.getVector(1)).setSafe(at, value(row));
    });
    create("big_probe", PROBE, PROBE_ROWS, (root, at, row) -> {
      ((BigIntVector) root.getVector(0)).setSafe(at, probeKey(row));
      ((IntVector) root.getVector(1)).setSafe(at, row % GROUPS);
    });
  }

  @Test
  void buildSidesOfMillionsOfRowsRunVectorizedAndSpill() {
    String plan = String.join("\n", query("EXPLAIN PLAN FOR " + SQL).column(0).stream().map(String::valueOf)
        .toList());
    assertThat(plan).as("a 4.2 M-row build side is hashed by the vectorized executor")
        .contains("EnumerableVectorJoin(probe=[big_probe]").doesNotContain("EnumerableHashJoin");

    long spilledBefore = service.spillStats().bytes();
    List<List<Object>> answered = query(SQL).rows();
    assertThat(answered).as("the join's answer at a 64 MB memory limit").isEqualTo(expected());
    assertThat(service.spillStats().bytes()).as("bytes the build side spilled").isGreaterThan(spilledBefore);
    assertThat(service.spillStats().heldBytes()).as("spill bytes held after the query").isZero();
  }

  /** Per group: the probe rows whose key is a build key, and the sum of their build values. */
  private static List<List<Object>> expected() {
    long[] counts = new long[GROUPS];
    long[] sums = new long[GROUPS];
    for (long row = 0; row < PROBE_ROWS; row++) {
      long key = probeKey(row);
      if (key < BUILD_ROWS) {
        int group = (int) (row % GROUPS);
        counts[group]++;
        sums[group] += value(key);
      }
    }
    List<List<Object>> rows = new ArrayList<>();
    for (int group = 0; group < GROUPS; group++) {
      rows.add(List.of(group, counts[group], sums[group]));
    }
    return rows;
  }

  private static long probeKey(long row) {
    return row * 7_919L % KEY_RANGE;
  }

  private static long value(long key) {
    return key % 1_000;
  }

  /** A table of {@code rows} generated rows, written batch by batch (no row list held). */
  private void create(String name, Schema schema, int rows, GeneratedBatches.RowWriter fill) {
    String location = dataRoot.resolve(name).resolve(UUID.randomUUID().toString()) + "/";
    StagedData staged;
    try (ArrowReader reader = new GeneratedBatches(allocator, schema, 0, rows, BATCH, fill)) {
      staged = engine.stage(location, reader);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    long version = engine.create(location, staged);
    Instant now = Instant.now();
    catalog.put(new TableRegistration(name, UUID.randomUUID().toString(), location, version, schema.toJson(), 1,
        now, now));
  }
}
