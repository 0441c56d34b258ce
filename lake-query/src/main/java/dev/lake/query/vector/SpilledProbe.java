package dev.lake.query.vector;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A join of the probe pipeline whose build side spilled ({@link PartitionedBuild}): the executor cuts the pipeline
 * here — the rows reaching the join are written to the probe partitions ({@link #write}), and once every split is
 * done each partition is joined on its own ({@link #joinPartition}), the rest of the pipeline run on its output.
 *
 * @param join the unbound join ({@link Op.Probe}, {@link OuterProbe} or {@link SemiProbe}) each partition binds to its
 *     own table (equal keys meet in one partition, so a semi join's residual sees all of a row's candidates)
 */
record SpilledProbe(Op join, PartitionedBuild build) implements Op {
  SpilledProbe {
    if (!(join instanceof Op.Probe) && !(join instanceof OuterProbe) && !(join instanceof SemiProbe)) {
      throw new IllegalArgumentException("only an equi-join's build side spills");
    }
  }

  /** Not a per-batch operator: the executor runs the pipeline around it ({@link #write}, {@link #joinPartition}). */
  @Override
  public Batch apply(Batch batch) {
    throw new IllegalStateException("a spilled join's probe rows reached it outside the staged execution (an outer"
        + " join keeping its build rows before a spilled join is not supported); raise query.memory-limit");
  }

  /** Writes probe rows to their partitions (any worker, at once). */
  void write(Batch batch) {
    build.addProbe(batch);
  }

  /** All probe rows are written. */
  void finishProbe() {
    build.finishProbe();
  }

  /**
   * Joins partition {@code p}: its build rows hashed into a table, its probe rows probed through the join bound to
   * it, then {@code rest}; an outer join keeping build rows adds the partition's unmatched ones. Output to
   * {@code sink}.
   */
  void joinPartition(int p, List<Op> rest, Consumer<Batch> sink) {
    if (!build.hasRows(p)) {
      return;
    }
    try (JoinTable table = build.table(p)) {
      Op bound = join instanceof Op.Probe ? ((Op.Probe) join).bind(table)
          : join instanceof SemiProbe ? ((SemiProbe) join).bind(table) : ((OuterProbe) join).bind(table);
      List<Op> pipeline = new ArrayList<>(rest.size() + 1);
      pipeline.add(bound);
      pipeline.addAll(rest);
      build.probeRows(p, batch -> {
        Batch out = batch;
        for (Op op : pipeline) {
          out = op.apply(out);
        }
        sink.accept(out);
      });
      if (bound instanceof OuterProbe && ((OuterProbe) bound).keepBuild()) {
        OuterProbe.addUnmatchedBuildRows(pipeline, 0, sink);
      }
    }
  }

  static int partitions() {
    return PartitionedBuild.PARTITIONS;
  }
}
