package dev.lake.query.vector;

import java.util.List;

/** A batch-at-a-time operator between the scan and the aggregate, or after the aggregate. */
public sealed interface Op permits Op.Filter, Op.Program, Op.Probe, Op.Regroup, KeyPrefilter, OuterProbe, SemiProbe,
    SpilledProbe {
  Batch apply(Batch batch);

  /**
   * Keeps the rows whose condition is true: evaluated conjunct by conjunct, each on the rows still selected. A lower
   * and an upper bound of one column become a {@link Range}; leading comparisons of a column with constants refine
   * one selection vector over the input and select once (Q6's three); the others select after each.
   *
   * <p>Conjuncts that cannot fail go first, ranges before comparisons ({@link #cheapFirst}): TPC-H Q12's
   * {@code l_shipmode IN ('MAIL', 'SHIP')} is an OR evaluated over every row when it leads, where the receipt date's
   * range keeps a seventh of them first.
   */
  record Filter(List<Expr> conjuncts) implements Op {
    public Filter {
      conjuncts = List.copyOf(cheapFirst(Range.merge(conjuncts)));
    }

    /**
     * {@code conjuncts} reordered: ranges of a column, then comparisons of a column with a constant or another column,
     * then the rest, each group in its given order. The conjuncts moved ahead cannot fail, so a conjunct after them
     * only ever sees fewer rows than before, never one it would not have seen; the others keep their order.
     */
    static List<Expr> cheapFirst(List<Expr> conjuncts) {
      List<Expr> ordered = new java.util.ArrayList<>(conjuncts.size());
      for (int rank = 0; rank < 3; rank++) {
        for (Expr conjunct : conjuncts) {
          if (rank(conjunct) == rank) {
            ordered.add(conjunct);
          }
        }
      }
      return ordered;
    }

    private static int rank(Expr conjunct) {
      if (conjunct instanceof Range) {
        return 0;
      }
      if (conjunct instanceof Compare compare && compare.left() instanceof Expr.Input
          && (compare.right() instanceof Expr.Literal || compare.right() instanceof Expr.Input)
          || conjunct instanceof InKeys) {
        return 1;
      }
      return 2;
    }

    /** Whether a leading conjunct narrows the selected positions itself ({@link Refinable}) before any copy. */
    private static boolean refinesInPlace(Expr conjunct) {
      return conjunct instanceof Range || conjunct instanceof InKeys
          || conjunct instanceof Compare compare && compare.left() instanceof Expr.Input;
    }

    @Override
    public Batch apply(Batch batch) {
      int n = batch.size();
      int[] positions = null;
      int selected = n;
      int next = 0;
      while (next < conjuncts.size() && selected > 0 && refinesInPlace(conjuncts.get(next))) {
        Refinable conjunct = (Refinable) conjuncts.get(next);
        int[] refined = positions == null ? new int[n] : positions;
        int refinedCount = positions == null ? conjunct.refineAll(batch, refined)
            : conjunct.refine(batch, refined, selected);
        if (refinedCount < 0) {
          break;
        }
        positions = refined;
        selected = refinedCount;
        next++;
      }
      Batch current = positions == null || selected == n ? batch : batch.select(positions, selected);
      int[] count = new int[1];
      for (Expr conjunct : conjuncts.subList(next, conjuncts.size())) {
        if (current.size() == 0) {
          return current;
        }
        int[] kept = conjunct.trueRows(current, count);
        if (count[0] < current.size()) {
          current = current.select(kept, count[0]);
        }
      }
      return current;
    }
  }

  /**
   * Computes new columns as a program: {@code steps} are evaluated in order over the input's columns followed by the
   * steps computed so far (so a common sub-expression is computed once), then {@code outputs} pick columns of that
   * extended batch.
   */
  record Program(int inputCount, List<Expr> steps, int[] outputs) implements Op {
    public Program {
      steps = List.copyOf(steps);
    }

    @Override
    public Batch apply(Batch batch) {
      Col[] computed = new Col[inputCount + steps.size()];
      Batch extended = new Extended(batch, computed, inputCount);
      for (int k = 0; k < steps.size(); k++) {
        computed[inputCount + k] = steps.get(k).eval(extended);
      }
      Col[] columns = new Col[outputs.length];
      for (int i = 0; i < outputs.length; i++) {
        columns[i] = extended.column(outputs[i]);
      }
      return Batch.of(columns, batch.size());
    }
  }

  /**
   * Probes one inner equi-join's build side ({@link JoinSpec}): keeps the rows with a matching build row, once per
   * match, and adds the build row's columns. A plan holds it unbound ({@code table} null: plans are cached and shared);
   * {@link VectorPlan#bind} gives each execution a copy holding the table that execution built.
   */
  record Probe(JoinSpec spec, JoinTable table) implements Op {
    @Override
    public Batch apply(Batch batch) {
      if (table == null) {
        throw new IllegalStateException("a vectorized join ran before its build side was bound");
      }
      if (batch.size() == 0) {
        return JoinedBatch.of(batch, table, new int[0], 0, spec);
      }
      JoinTable.Matches matches = table.probe(batch, spec.probeKeys());
      Batch probed = matches.count() == batch.size() && isIdentity(matches.probeRows(), matches.count()) ? batch
          : batch.select(matches.probeRows(), matches.count());
      return JoinedBatch.of(probed, table, matches.buildRows(), matches.count(), spec);
    }

    Probe bind(JoinTable built) {
      return new Probe(spec, built);
    }

    private static boolean isIdentity(int[] rows, int count) {
      for (int i = 0; i < count; i++) {
        if (rows[i] != i) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Aggregates the grouped rows again (an aggregate over an aggregate): one hash aggregate over the whole batch,
   * which holds the first aggregate's merged groups (already charged to the query's memory).
   */
  record Regroup(int[] keys, Col[] keyShapes, List<AggSpec> aggregates, Col[] argShapes) implements Op {
    public Regroup {
      keys = keys.clone();
      keyShapes = keyShapes.clone();
      aggregates = List.copyOf(aggregates);
      argShapes = argShapes.clone();
    }

    @Override
    public Batch apply(Batch batch) {
      try (HashAggregate aggregate = new HashAggregate(keys, keyShapes, aggregates, argShapes, MemoryBudget.none())) {
        aggregate.add(batch);
        return aggregate.result();
      }
    }
  }

  /** An input batch followed by computed columns. */
  final class Extended implements Batch {
    private final Batch input;
    private final Col[] computed;
    private final int inputCount;

    Extended(Batch input, Col[] computed, int inputCount) {
      this.input = input;
      this.computed = computed;
      this.inputCount = inputCount;
    }

    @Override
    public int size() {
      return input.size();
    }

    @Override
    public Col column(int index) {
      return index < inputCount ? input.column(index) : computed[index];
    }

    @Override
    public Batch select(int[] positions, int count) {
      Col[] selected = new Col[computed.length];
      for (int i = inputCount; i < computed.length; i++) {
        if (computed[i] != null) {
          selected[i] = computed[i].select(positions, count);
        }
      }
      return new Extended(input.select(positions, count), selected, inputCount);
    }
  }
}
