package dev.lake.query.plan.vector;

import dev.lake.query.plan.lance.LanceScanCall;
import dev.lake.query.plan.lance.ScanSource;
import dev.lake.query.plan.types.RowShape;
import dev.lake.query.vector.JoinBuilder;
import dev.lake.query.vector.JoinSpec;
import dev.lake.query.vector.JoinTable;
import dev.lake.query.vector.PartitionedBuild;
import dev.lake.query.vector.StateMemoryException;
import dev.lake.query.vector.VectorPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * One vectorized join as Calcite's generated code calls it (stashed by {@link EnumerableVectorJoin#implement}): per
 * execution it hashes the build sides' rows into {@link JoinTable}s (charged to the query's memory limit), binds them
 * to the cached plan and runs the probe pipeline on the probe table's scan source; the tables are released when the
 * pipeline is done. Holds nothing of an execution: a cached plan is executed concurrently.
 *
 * @param reference the probe table's reference (how the execution's scan source is found)
 * @param buildShapes the row shape of each build side's rows, in slot order
 * @param buildScans per slot, the scan read directly as Arrow batches (its rows expression is then null)
 * @param shape the shape of the rows returned
 */
public record VectorJoinCall(String reference, VectorPlan plan, List<RowShape> buildShapes,
    List<Optional<BuildScan>> buildScans, RowShape shape) {
  private static final int CANCEL_CHECK_ROWS = 4_096;

  public VectorJoinCall {
    Objects.requireNonNull(reference, "reference");
    Objects.requireNonNull(plan, "plan");
    buildShapes = List.copyOf(buildShapes);
    buildScans = List.copyOf(buildScans);
    Objects.requireNonNull(shape, "shape");
  }

  /**
   * The rows of the aggregate (or of a rows-only plan), computed once per execution when first enumerated (replayed
   * after that); another vectorized join whose build side they are reads them as columns instead ({@link Rows#collect}).
   */
  public Enumerable<Object> rows(DataContext root, Enumerable<?>[] builds) {
    return new Rows(this, root, builds);
  }

  /** {@link #rows}: enumerable by Calcite's runtime, and collectable as columns by a joining vectorized join. */
  static final class Rows extends AbstractEnumerable<Object> {
    private final VectorJoinCall call;
    private final DataContext root;
    private final Enumerable<?>[] builds;
    private List<Object> rows;

    private Rows(VectorJoinCall call, DataContext root, Enumerable<?>[] builds) {
      this.call = call;
      this.root = root;
      this.builds = builds;
    }

    @Override
    public synchronized Enumerator<Object> enumerator() {
      if (rows == null) {
        List<Object> out = new ArrayList<>();
        call.run(root, builds, (scans, bound) -> {
          try (Enumerator<Object> enumerator = scans.vectorRows(bound, call.shape).enumerator()) {
            while (enumerator.moveNext()) {
              out.add(enumerator.current());
            }
          }
        });
        rows = out;
      }
      return Linq4j.iterableEnumerator(rows);
    }

    /** Whether {@link #collect} may be used: the plan is rows-only (its rows are not grouped). */
    boolean collectable() {
      return call.plan.rowsOnly();
    }

    /** Runs the rows-only plan (once more), handing its rows to {@code chunks} a chunk at a time. */
    void collect(java.util.function.Consumer<dev.lake.query.vector.VectorResult> chunks) {
      call.run(root, builds, (scans, bound) -> scans.vectorCollect(bound, chunks));
    }
  }

  /** What an execution does with its probe pipeline once the build sides are bound to it. */
  @FunctionalInterface
  private interface Pipeline {
    void run(ScanSource scans, VectorPlan bound);
  }

  /** Builds the build sides, binds them to the plan, hands both to {@code pipeline}, then releases the tables. */
  private void run(DataContext root, Enumerable<?>[] builds, Pipeline pipeline) {
    Object source = root.get(LanceScanCall.sourceVariable(reference));
    if (!(source instanceof ScanSource)) {
      throw new IllegalStateException("no scan source is bound for table reference '" + reference + "'");
    }
    ScanSource scans = (ScanSource) source;
    AtomicBoolean cancelled = DataContext.Variable.CANCEL_FLAG.get(root);
    List<JoinTable> tables = new ArrayList<>(Arrays.asList(new JoinTable[builds.length]));
    List<PartitionedBuild> spilled = new ArrayList<>(Arrays.asList(new PartitionedBuild[builds.length]));
    try {
      for (JoinSpec spec : buildOrder(plan.joins(), buildScans)) {
        Optional<BuildScan> scan = buildScans.get(spec.slot());
        Built built = scan.isPresent() ? build(spec, scan.get(), root, scans, cancelled)
            : build(spec, builds[spec.slot()], buildShapes.get(spec.slot()), scans, cancelled);
        tables.set(spec.slot(), built.table());
        spilled.set(spec.slot(), built.spilled());
      }
      pipeline.run(scans, plan.bind(tables, spilled));
    } finally {
      for (JoinTable table : tables) {
        if (table != null) {
          table.close();
        }
      }
      for (PartitionedBuild build : spilled) {
        if (build != null) {
          build.close();
        }
      }
    }
  }

  /**
   * The order the build sides are built in: the computed ones first, then the plain table scans, each in plan order.
   * A computed build side (TPC-H Q21's EXISTS, reduced by the outer join's keys) runs joins of its own and releases
   * their tables when done, so it never holds them while this join's scanned tables (Q21's 7 million 'F' orders at SF
   * 10) already take the query's memory: the peak is the larger of the two, not their sum.
   */
  static List<JoinSpec> buildOrder(List<JoinSpec> joins, List<Optional<BuildScan>> buildScans) {
    List<JoinSpec> order = new ArrayList<>();
    for (boolean scanned : new boolean[] {false, true}) {
      for (JoinSpec spec : joins) {
        if (buildScans.get(spec.slot()).isPresent() == scanned) {
          order.add(spec);
        }
      }
    }
    return order;
  }

  /** A build side: its table in memory, or (past the memory limit, when the query may spill) its spilled rows. */
  private record Built(JoinTable table, PartitionedBuild spilled) {}

  private static Built build(JoinSpec spec, Enumerable<?> rows, RowShape rowShape, ScanSource scans,
      AtomicBoolean cancelled) {
    if (rows instanceof Rows && ((Rows) rows).collectable()) {
      return build(spec, (Rows) rows, scans, cancelled);
    }
    BufferAllocator allocator = scans.allocator();
    JoinBuilder builder = new JoinBuilder(spec, allocator, PartitionedBuild.allowed(scans.spill()));
    PartitionedBuild spilled = null;
    boolean built = false;
    try (Enumerator<?> enumerator = rows.enumerator()) {
      long count = 0;
      while (enumerator.moveNext()) {
        if (++count % CANCEL_CHECK_ROWS == 0
            && (Thread.currentThread().isInterrupted() || (cancelled != null && cancelled.get()))) {
          throw new IllegalStateException("the query was cancelled while a vectorized join built its hash table");
        }
        Object[] row = row(enumerator.current(), rowShape);
        if (spilled != null) {
          spilled.add(row);
          continue;
        }
        try {
          builder.add(row);
        } catch (StateMemoryException e) {
          spilled = spill(builder, spec, scans, e);
          spilled.add(row);
        }
      }
      Built result = finish(builder, spilled, spec, scans);
      built = true;
      return result;
    } finally {
      if (!built) {
        abandon(builder, spilled);
      }
    }
  }

  /**
   * A build side that is itself a vectorized join tree: its rows go into the table as columns, a chunk at a time
   * (past the memory limit, when the query may spill, to disk).
   */
  private static Built build(JoinSpec spec, Rows joined, ScanSource scans, AtomicBoolean cancelled) {
    JoinBuilder builder = new JoinBuilder(spec, scans.allocator(), PartitionedBuild.allowed(scans.spill()));
    PartitionedBuild[] spilled = new PartitionedBuild[1];
    boolean built = false;
    try {
      joined.collect(chunk -> {
        if (Thread.currentThread().isInterrupted() || (cancelled != null && cancelled.get())) {
          throw new IllegalStateException("the query was cancelled while a vectorized join built its hash table");
        }
        if (spilled[0] != null) {
          spilled[0].add(chunk);
          return;
        }
        try {
          builder.addRows(chunk);
        } catch (StateMemoryException e) {
          spilled[0] = spill(builder, spec, scans, e);
          spilled[0].add(chunk);
        }
      });
      Built result = finish(builder, spilled[0], spec, scans);
      built = true;
      return result;
    } finally {
      if (!built) {
        abandon(builder, spilled[0]);
      }
    }
  }

  private static Built build(JoinSpec spec, BuildScan scan, DataContext root, ScanSource scans,
      AtomicBoolean cancelled) {
    Object source = root.get(LanceScanCall.sourceVariable(scan.reference()));
    if (!(source instanceof ScanSource)) {
      throw new IllegalStateException("no scan source is bound for table reference '" + scan.reference() + "'");
    }
    BufferAllocator allocator = scans.allocator();
    boolean spillable = PartitionedBuild.allowed(scans.spill());
    boolean built = false;
    if (scan.cached().isPresent()) {
      try {
        JoinTable table = ((ScanSource) source).sharedBuild(scan.cached().get(), scan.rows() + " keys="
            + Arrays.toString(spec.buildKeys()) + " shapes=" + shapes(spec), () -> new JoinBuilder(spec, allocator,
            spillable));
        if (table != null) {
          return new Built(table, null);
        }
      } catch (StateMemoryException e) {
        if (!spillable) {
          throw e;
        }
        // too big for memory: read it again from Lance, spilling
      }
    }
    JoinBuilder builder = new JoinBuilder(spec, allocator, spillable);
    PartitionedBuild spilled = null;
    try (ArrowReader reader = ((ScanSource) source).batches(scan.columns(), scan.filter(), Optional.empty())) {
      while (reader.loadNextBatch()) {
        if (Thread.currentThread().isInterrupted() || (cancelled != null && cancelled.get())) {
          throw new IllegalStateException("the query was cancelled while a vectorized join built its hash table");
        }
        VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        if (spilled != null) {
          spilled.addBatch(batch.getFieldVectors(), batch.getRowCount());
          continue;
        }
        try {
          builder.addBatch(batch.getFieldVectors(), batch.getRowCount());
        } catch (StateMemoryException e) {
          spilled = spill(builder, spec, scans, e);
          spilled.addBatch(batch.getFieldVectors(), batch.getRowCount());
        }
      }
      Built result = finish(builder, spilled, spec, scans);
      built = true;
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException("reading a build side of a vectorized join failed: " + e.getMessage(), e);
    } finally {
      if (!built) {
        abandon(builder, spilled);
      }
    }
  }

  /** The kind and scale of each build column, as text. */
  private static String shapes(JoinSpec spec) {
    StringBuilder text = new StringBuilder();
    for (dev.lake.query.vector.Col shape : spec.buildShapes()) {
      text.append(shape.kind()).append('/').append(shape.scale()).append(' ');
    }
    return text.toString();
  }

  /** The build side outgrew the memory limit: its rows go on to disk, or the query fails when it may not spill. */
  private static PartitionedBuild spill(JoinBuilder builder, JoinSpec spec, ScanSource scans,
      StateMemoryException cause) {
    if (!PartitionedBuild.allowed(scans.spill())) {
      throw cause;
    }
    return PartitionedBuild.spill(builder, spec, scans.spill(), scans.allocator());
  }

  private static Built finish(JoinBuilder builder, PartitionedBuild spilled, JoinSpec spec, ScanSource scans) {
    PartitionedBuild out = spilled;
    if (out == null) {
      try {
        return new Built(builder.finish(), null);
      } catch (StateMemoryException e) {
        out = spill(builder, spec, scans, e);
      }
    }
    out.finish();
    return new Built(null, out);
  }

  private static void abandon(JoinBuilder builder, PartitionedBuild spilled) {
    builder.abandon();
    if (spilled != null) {
      spilled.close();
    }
  }

  private static Object[] row(Object row, RowShape shape) {
    switch (shape) {
      case SCALAR:
        return new Object[] {row};
      case ARRAY:
        return (Object[]) row;
      default:
        return ((List<?>) row).toArray();
    }
  }
}
