package dev.lake.query.vector;

import java.util.List;
import java.util.Objects;

/**
 * Probes one semi or anti equi-join's build side ({@link JoinSpec}, probed like {@link Op.Probe}, the probe always the
 * join's left input) and keeps the probe rows, each at most once and with none of the build side's columns: a semi
 * join ({@code EXISTS}) the rows with at least one match whose {@code residual} condition is true, an anti join
 * ({@code NOT EXISTS}) the others — a row without a match (a NULL key never matches) or whose matches' residual is
 * false or NULL (three-valued logic: only a true condition makes a match). TPC-H Q21's {@code EXISTS} and
 * {@code NOT EXISTS} with {@code l2.l_suppkey <> l1.l_suppkey}.
 *
 * <p>A plan holds it unbound ({@code table} null); {@link VectorPlan#bind} gives each execution a copy holding the table
 * that execution built.
 *
 * @param residual the join condition's non-equi conjuncts over the probe columns followed by the build columns (the
 *     join's left and right inputs), empty when the keys alone decide
 * @param anti whether it keeps the rows without a match (NOT EXISTS) instead of those with one (EXISTS)
 */
public record SemiProbe(JoinSpec spec, List<Expr> residual, boolean anti, JoinTable table) implements Op {
  public SemiProbe {
    Objects.requireNonNull(spec, "spec");
    residual = List.copyOf(residual);
    if (!spec.probeLeft()) {
      throw new IllegalArgumentException("a semi or anti join probes with its left input");
    }
  }

  /** The unbound join of a plan. */
  public SemiProbe(JoinSpec spec, List<Expr> residual, boolean anti) {
    this(spec, residual, anti, null);
  }

  /** This join for one execution, over the table it built. */
  SemiProbe bind(JoinTable built) {
    return new SemiProbe(spec, residual, anti, built);
  }

  /** What EXPLAIN calls the join. */
  public String label() {
    return anti ? "anti" : "semi";
  }

  @Override
  public Batch apply(Batch batch) {
    if (table == null) {
      throw new IllegalStateException("a vectorized join ran before its build side was bound");
    }
    int n = batch.size();
    if (n == 0) {
      return batch;
    }
    JoinTable.Matches matches = table.probe(batch, spec.probeKeys());
    boolean[] hit = new boolean[n];
    int[] probeRows = matches.probeRows();
    int count = matches.count();
    if (residual.isEmpty() || count == 0) {
      for (int i = 0; i < count; i++) {
        hit[probeRows[i]] = true;
      }
    } else {
      markTrue(batch, matches, hit);
    }
    int[] kept = new int[n];
    int out = 0;
    for (int row = 0; row < n; row++) {
      if (hit[row] != anti) {
        kept[out++] = row;
      }
    }
    return out == n ? batch : batch.select(kept, out);
  }

  /** Marks in {@code hit} the probe rows of the pairs in {@code matches} whose residual condition is true. */
  private void markTrue(Batch batch, JoinTable.Matches matches, boolean[] hit) {
    int[] probeRows = matches.probeRows();
    int count = matches.count();
    Batch current = JoinedBatch.of(batch.select(probeRows, count), table, matches.buildRows(), count, spec);
    // alive[i]: the pair (of matches) that row i of current is.
    int[] alive = Batch.range(0, count);
    int size = count;
    int[] kept = new int[1];
    for (Expr conjunct : residual) {
      if (size == 0) {
        return;
      }
      int[] rows = conjunct.trueRows(current, kept);
      if (kept[0] < size) {
        int[] next = new int[kept[0]];
        for (int i = 0; i < kept[0]; i++) {
          next[i] = alive[rows[i]];
        }
        alive = next;
        size = kept[0];
        current = current.select(rows, size);
      }
    }
    for (int i = 0; i < size; i++) {
      hit[probeRows[alive[i]]] = true;
    }
  }
}
