package dev.lake.query.vector;

import dev.lake.query.spill.SpillFile;
import dev.lake.query.spill.SpillSpace;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * The build side of a join that did not fit the query's memory limit, spilled (a grace hash join): its rows are
 * written to {@link #PARTITIONS} files by a hash of their join keys, and the probe rows reaching the join are written
 * the same way ({@link SpilledProbe}); then each partition's build rows become a {@link JoinTable} of their own and
 * that partition's probe rows are probed against it (equal keys hash alike, so every match is within a partition;
 * NULL keys match nothing wherever they land). Every partition is probed, also one with no build rows: an outer or
 * anti join then keeps all its probe rows. Closing deletes the files.
 */
public final class PartitionedBuild implements AutoCloseable {
  static final int PARTITIONS = 32;
  /** Rows of the row runtime's representation collected before they are written, as one batch. */
  private static final int STAGING_ROWS = 4_096;

  private final JoinSpec spec;
  private final SpillSpace space;
  private final BufferAllocator allocator;
  private final SpillFile[] build = new SpillFile[PARTITIONS];
  private final SpillFile[] probe = new SpillFile[PARTITIONS];
  private JoinBuilder staging;
  private boolean finished;

  private PartitionedBuild(JoinSpec spec, SpillSpace space, BufferAllocator allocator) {
    this.spec = spec;
    this.space = space;
    this.allocator = allocator;
    this.staging = new JoinBuilder(spec, allocator);
  }

  /** Whether a build side that outgrows the memory limit may spill to {@code space} (null: no spill space). */
  public static boolean allowed(SpillSpace space) {
    return space != null && space.enabled();
  }

  /** An empty spilled build side of {@code spec}. */
  public static PartitionedBuild create(JoinSpec spec, SpillSpace space, BufferAllocator allocator) {
    return new PartitionedBuild(spec, space, allocator);
  }

  /** Takes over the rows {@code builder} collected (its memory released): the build side goes on spilled. */
  public static PartitionedBuild spill(JoinBuilder builder, JoinSpec spec, SpillSpace space,
      BufferAllocator allocator) {
    PartitionedBuild spilled = new PartitionedBuild(spec, space, allocator);
    try {
      Batch collected = builder.collected();
      builder.abandon();
      spilled.write(collected);
      return spilled;
    } catch (RuntimeException e) {
      spilled.close();
      throw e;
    }
  }

  /** Adds one build row in the row runtime's representation ({@link JoinBuilder#add(Object[])}). */
  public void add(Object[] row) {
    staging.add(row);
    if (staging.rows() >= STAGING_ROWS) {
      flush();
    }
  }

  /** Adds a batch of Arrow vectors of the build columns ({@link JoinBuilder#addBatch}). */
  public void addBatch(List<FieldVector> vectors, int rowCount) {
    write(ScanBatch.all(vectors, rowCount));
  }

  /** Adds the rows of a vectorized join tree's chunk, its columns the build columns ({@link JoinBuilder#addRows}). */
  public void add(VectorResult chunk) {
    write(chunk.batch());
  }

  /** Adds a batch whose first columns are the build columns. */
  void add(Batch batch) {
    write(batch);
  }

  private void flush() {
    if (staging.rows() > 0) {
      Batch rows = staging.collected();
      staging.abandon();
      staging = new JoinBuilder(spec, allocator);
      write(rows);
    }
  }

  private void write(Batch batch) {
    writePartitioned(batch, spec.buildKeys(), spec.buildShapes().length, build, "join-build");
  }

  /** All build rows are in: the files are complete. */
  public void finish() {
    flush();
    staging.abandon();
    staging = null;
    for (SpillFile file : build) {
      if (file != null) {
        file.finish();
      }
    }
    finished = true;
  }

  /** Writes probe rows that reached the join (their first {@link JoinSpec#probeWidth} columns) to their partitions. */
  void addProbe(Batch batch) {
    writePartitioned(batch, spec.probeKeys(), spec.probeWidth(), probe, "join-probe");
  }

  /** All probe rows are in. */
  void finishProbe() {
    for (SpillFile file : probe) {
      if (file != null) {
        synchronized (file) {
          file.finish();
        }
      }
    }
  }

  private void writePartitioned(Batch batch, int[] keys, int width, SpillFile[] files, String what) {
    int n = batch.size();
    if (n == 0) {
      return;
    }
    int[] counts = new int[PARTITIONS];
    int[][] rows = Batches.partition(Batches.hashes(batch, keys, 0), PARTITIONS, counts);
    for (int p = 0; p < PARTITIONS; p++) {
      if (counts[p] == 0) {
        continue;
      }
      Batch part = counts[p] == n ? batch : batch.select(rows[p], counts[p]);
      SpillFile file;
      synchronized (files) {
        if (files[p] == null) {
          files[p] = space.create(what + "-p" + p);
        }
        file = files[p];
      }
      synchronized (file) {
        SpilledBatches.write(file, part, width);
      }
    }
  }

  /** The join spec whose build side this is. */
  JoinSpec spec() {
    return spec;
  }

  /** Whether partition {@code p} has probe rows or build rows (else it yields nothing, whatever the join). */
  boolean hasRows(int p) {
    return probe[p] != null || build[p] != null;
  }

  /** The hash table of partition {@code p}'s build rows (empty when it has none), charged to the memory limit. */
  JoinTable table(int p) {
    if (!finished) {
      throw new IllegalStateException("a spilled join's build side was probed before it was complete");
    }
    JoinBuilder builder = new JoinBuilder(spec, allocator);
    boolean built = false;
    try {
      if (build[p] != null) {
        try (SpilledBatches.Reader batches = SpilledBatches.read(build[p])) {
          while (batches.hasNext()) {
            builder.addRows(batches.next());
          }
        }
      }
      JoinTable table = builder.finish();
      built = true;
      return table;
    } catch (StateMemoryException e) {
      throw new StateMemoryException("one of " + PARTITIONS + " partitions of a spilled join's build side needs more"
          + " than the query's memory limit (query.memory-limit): " + e.getMessage());
    } finally {
      if (!built) {
        builder.abandon();
      }
    }
  }

  /** Hands partition {@code p}'s probe rows to {@code sink}, in batches as they were written. */
  void probeRows(int p, Consumer<Batch> sink) {
    if (probe[p] == null) {
      return;
    }
    try (SpilledBatches.Reader batches = SpilledBatches.read(probe[p])) {
      while (batches.hasNext()) {
        if (Thread.currentThread().isInterrupted()) {
          throw new IllegalStateException("the query was cancelled while a spilled join ran");
        }
        sink.accept(batches.next());
      }
    }
  }

  /** Deletes the spill files. */
  @Override
  public void close() {
    if (staging != null) {
      staging.abandon();
      staging = null;
    }
    for (int p = 0; p < PARTITIONS; p++) {
      if (build[p] != null) {
        build[p].delete();
      }
      if (probe[p] != null) {
        probe[p].delete();
      }
    }
  }
}
