package dev.lake.query.vector;

import dev.lake.query.spill.SpillFile;
import dev.lake.query.spill.SpillSpace;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A hash aggregate that spills: its input rows (the key and argument columns only) are written to
 * {@link #PARTITIONS} spill files by a hash of their group keys, then each file is aggregated alone (a group's rows
 * are all in one file), so only one partition's groups are in memory at a time. A partition still too big for the
 * memory limit is split again by another hash, up to {@link #MAX_LEVEL} times. Thread-safe {@link #add}: the
 * execution's workers write at once (one lock per partition file).
 */
final class PartitionedAggregate implements AutoCloseable {
  static final int PARTITIONS = 16;
  static final int MAX_LEVEL = 4;

  private final int[] columns;
  private final int[] keys;
  private final Col[] keyShapes;
  private final List<AggSpec> specs;
  private final Col[] argShapes;
  private final SpillSpace space;
  private final BufferAllocator allocator;
  private final int level;
  private final SpillFile[] files = new SpillFile[PARTITIONS];

  /**
   * @param columns the input columns kept (in this order: the layout {@code keys} and the specs' arguments refer to)
   */
  private PartitionedAggregate(int[] columns, int[] keys, Col[] keyShapes, List<AggSpec> specs, Col[] argShapes,
      SpillSpace space, BufferAllocator allocator, int level) {
    this.columns = columns;
    this.keys = keys;
    this.keyShapes = keyShapes;
    this.specs = specs;
    this.argShapes = argShapes;
    this.space = space;
    this.allocator = allocator;
    this.level = level;
  }

  /** The spilling form of {@code plan}'s aggregate: input batches are the rows after its {@code before} operators. */
  static PartitionedAggregate of(VectorPlan plan, SpillSpace space, BufferAllocator allocator) {
    List<Integer> kept = new ArrayList<>();
    int[] keys = new int[plan.keys().length];
    for (int k = 0; k < keys.length; k++) {
      keys[k] = slot(kept, plan.keys()[k]);
    }
    List<AggSpec> specs = new ArrayList<>();
    for (AggSpec spec : plan.aggregates()) {
      int argument = spec.argument() < 0 ? -1 : slot(kept, spec.argument());
      specs.add(new AggSpec(spec.function(), argument, spec.kind(), spec.scale(), spec.integer()));
    }
    return new PartitionedAggregate(kept.stream().mapToInt(Integer::intValue).toArray(), keys, plan.keyShapes(),
        specs, plan.argShapes(), space, allocator, 0);
  }

  private static int slot(List<Integer> kept, int column) {
    int at = kept.indexOf(column);
    if (at < 0) {
      kept.add(column);
      at = kept.size() - 1;
    }
    return at;
  }

  /** Writes the batch's rows to their partitions' files. */
  void add(Batch batch) {
    if (batch.size() == 0) {
      return;
    }
    Batch kept = Batches.columns(batch, columns);
    int[] counts = new int[PARTITIONS];
    int[][] rows = Batches.partition(Batches.hashes(kept, keys, level), PARTITIONS, counts);
    for (int p = 0; p < PARTITIONS; p++) {
      if (counts[p] == 0) {
        continue;
      }
      Batch part = counts[p] == kept.size() ? kept : kept.select(rows[p], counts[p]);
      SpillFile file;
      synchronized (this) {
        if (files[p] == null) {
          files[p] = space.create("aggregate-l" + level + "-p" + p);
        }
        file = files[p];
      }
      synchronized (file) {
        SpilledBatches.write(file, part, columns.length);
      }
    }
  }

  /**
   * Aggregates partition by partition (each file deleted once read), each partition's groups run through
   * {@code after} (the operators after the aggregate); the groups of every partition, in partition order.
   */
  synchronized List<Batch> results(UnaryOperator<Batch> after) {
    List<Batch> out = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      SpillFile file = files[p];
      if (file == null) {
        continue;
      }
      file.finish();
      try {
        out.addAll(aggregate(file, after));
      } finally {
        file.delete();
        files[p] = null;
      }
    }
    if (out.isEmpty()) {
      try (HashAggregate none = new HashAggregate(keys, keyShapes, specs, argShapes, MemoryBudget.none())) {
        out.add(after.apply(none.result()));
      }
    }
    return out;
  }

  private List<Batch> aggregate(SpillFile file, UnaryOperator<Batch> after) {
    HashAggregate groups = new HashAggregate(keys, keyShapes, specs, argShapes, new MemoryBudget(allocator));
    try (groups; SpilledBatches.Reader batches = SpilledBatches.read(file)) {
      while (batches.hasNext()) {
        checkInterrupted();
        groups.add(batches.next());
      }
      return List.of(after.apply(groups.result()));
    } catch (StateMemoryException e) {
      if (level + 1 >= MAX_LEVEL) {
        throw e;
      }
    }
    // Too many groups for one partition: split it again by another hash.
    int[] identity = new int[columns.length];
    for (int c = 0; c < identity.length; c++) {
      identity[c] = c;
    }
    try (PartitionedAggregate split = new PartitionedAggregate(identity, keys, keyShapes, specs, argShapes, space,
        allocator, level + 1); SpilledBatches.Reader batches = SpilledBatches.read(file)) {
      while (batches.hasNext()) {
        checkInterrupted();
        split.add(batches.next());
      }
      return split.results(after);
    }
  }

  private static void checkInterrupted() {
    if (Thread.currentThread().isInterrupted()) {
      throw new IllegalStateException("the query was cancelled while its spilled aggregate ran");
    }
  }

  /** Deletes the files not aggregated yet (a failed or cancelled execution). */
  @Override
  public synchronized void close() {
    for (int p = 0; p < PARTITIONS; p++) {
      if (files[p] != null) {
        files[p].delete();
        files[p] = null;
      }
    }
  }
}
