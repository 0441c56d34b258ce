package dev.lake.query.vector;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Probes one outer equi-join's build side ({@link JoinSpec}, probed like {@link Op.Probe}) and keeps the rows an outer
 * join keeps beyond the inner join's matches: with {@code keepProbe} a probe row none of whose matches passes the
 * {@code residual} condition (or without a match — a NULL key never matches) comes out once with NULL build columns
 * (a LEFT join from its preserved side: TPC-H Q13, and NOT EXISTS / NOT IN followed by their NULL tests: Q16, Q22);
 * with {@code keepBuild} the build rows no probe row matched come out once at the end of the execution with NULL
 * probe columns ({@link #addUnmatchedBuildRows}; RIGHT from the probe side, and FULL with both).
 *
 * <p>A plan holds it unbound; {@link VectorPlan#bind} gives each execution a copy holding that execution's table and
 * its marks of matched build rows (written by every worker, only ever set, read after all of them finished).
 *
 * @param spec the keys and the build side; {@code probeShapes} the probe columns' kinds (for NULL probe columns)
 * @param residual the join condition's non-equi part over the joined columns, or null
 * @param label what EXPLAIN calls the join: probe-outer, build-outer or full-outer (which side's rows it keeps)
 */
public record OuterProbe(JoinSpec spec, Col[] probeShapes, Op.Filter residual, boolean keepProbe, boolean keepBuild,
    String label, JoinTable table, boolean[] matched) implements Op {
  public OuterProbe {
    Objects.requireNonNull(spec, "spec");
    probeShapes = probeShapes.clone();
    Objects.requireNonNull(label, "label");
    if (!keepProbe && !keepBuild) {
      throw new IllegalArgumentException("an outer join keeps the rows of at least one side");
    }
  }

  /** The unbound join of a plan. */
  public OuterProbe(JoinSpec spec, Col[] probeShapes, Op.Filter residual, boolean keepProbe, boolean keepBuild,
      String label) {
    this(spec, probeShapes, residual, keepProbe, keepBuild, label, null, null);
  }

  /** This join for one execution, over the table it built. */
  OuterProbe bind(JoinTable built) {
    return new OuterProbe(spec, probeShapes, residual, keepProbe, keepBuild, label, built,
        keepBuild ? new boolean[built.rows()] : null);
  }

  @Override
  public Batch apply(Batch batch) {
    if (table == null) {
      throw new IllegalStateException("a vectorized join ran before its build side was bound");
    }
    int n = batch.size();
    JoinTable.Matches matches = n == 0 ? new JoinTable.Matches(new int[0], new int[0], 0)
        : table.probe(batch, spec.probeKeys());
    int[] probeRows = matches.probeRows();
    int[] buildRows = matches.buildRows();
    int count = matches.count();
    if (residual != null && count > 0) {
      Batch pairs = JoinedBatch.nullExtended(batch.select(probeRows, count), null, table, buildRows, count, spec);
      int[] positions = survivors(residual, pairs, count);
      if (positions.length < count) {
        int[] p = new int[positions.length];
        int[] b = new int[positions.length];
        for (int i = 0; i < positions.length; i++) {
          p[i] = probeRows[positions[i]];
          b[i] = buildRows[positions[i]];
        }
        probeRows = p;
        buildRows = b;
        count = positions.length;
      }
    }
    if (matched != null) {
      for (int i = 0; i < count; i++) {
        matched[buildRows[i]] = true;
      }
    }
    if (!keepProbe) {
      return JoinedBatch.nullExtended(batch.select(probeRows, count), null, table, buildRows, count, spec);
    }
    // Every probe row: its matches in order, or once with no build row (-1).
    int[] outProbe = new int[count + n];
    int[] outBuild = new int[count + n];
    int out = 0;
    int next = 0;
    for (int row = 0; row < n; row++) {
      if (next < count && probeRows[next] == row) {
        while (next < count && probeRows[next] == row) {
          outProbe[out] = row;
          outBuild[out++] = buildRows[next++];
        }
      } else {
        outProbe[out] = row;
        outBuild[out++] = -1;
      }
    }
    Batch probed = out == n && count == 0 ? batch : batch.select(outProbe, out);
    return JoinedBatch.nullExtended(probed, null, table, outBuild, out, spec);
  }

  /** The positions of {@code pairs} whose residual condition is true. */
  private static int[] survivors(Op.Filter residual, Batch pairs, int count) {
    Batch current = new Positions(pairs, count);
    Batch kept = residual.apply(current);
    Col positions = kept.column(Positions.POSITION);
    int[] out = new int[kept.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = (int) positions.longs[i];
    }
    return out;
  }

  /**
   * After every probe batch of an execution: the build rows of each bound join in {@code before} that keeps them and
   * that no probe row matched, NULL-extended, run through the operators after that join and handed to {@code sink}
   * (the aggregate). Joins earlier in the pipeline go first, so their rows reach the later joins' marks.
   */
  static void addUnmatchedBuildRows(List<Op> before, Consumer<Batch> sink) {
    for (int at = 0; at < before.size(); at++) {
      if (before.get(at) instanceof OuterProbe && ((OuterProbe) before.get(at)).keepBuild) {
        addUnmatchedBuildRows(before, at, sink);
      }
    }
  }

  /** {@link #addUnmatchedBuildRows} of the join at {@code at} of {@code before} only. */
  static void addUnmatchedBuildRows(List<Op> before, int at, Consumer<Batch> sink) {
    OuterProbe join = (OuterProbe) before.get(at);
    int rows = join.table.rows();
    int[] unmatched = new int[rows];
    int count = 0;
    for (int row = 0; row < rows; row++) {
      if (!join.matched[row]) {
        unmatched[count++] = row;
      }
    }
    for (int from = 0; from < count; from += 4_096) {
      int size = Math.min(4_096, count - from);
      int[] chunk = java.util.Arrays.copyOfRange(unmatched, from, from + size);
      Batch batch = JoinedBatch.nullExtended(null, join.probeShapes, join.table, chunk, size, join.spec);
      for (Op op : before.subList(at + 1, before.size())) {
        batch = op.apply(batch);
      }
      sink.accept(batch);
    }
  }

  /** A batch with one more column, each row's position in it (to tell which rows a filter kept). */
  private static final class Positions implements Batch {
    static final int POSITION = Integer.MAX_VALUE;
    private final Batch input;
    private final Col position;

    Positions(Batch input, int count) {
      this(input, Col.longs(count, 0));
      for (int i = 0; i < count; i++) {
        position.longs[i] = i;
      }
    }

    private Positions(Batch input, Col position) {
      this.input = input;
      this.position = position;
    }

    @Override
    public int size() {
      return input.size();
    }

    @Override
    public Col column(int index) {
      return index == POSITION ? position : input.column(index);
    }

    @Override
    public Batch select(int[] positions, int count) {
      return new Positions(input.select(positions, count), position.select(positions, count));
    }
  }
}
