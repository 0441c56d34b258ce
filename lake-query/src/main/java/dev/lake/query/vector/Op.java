package dev.lake.query.vector;

import java.util.List;

/** A batch-at-a-time operator between the scan and the aggregate, or after the aggregate. */
public sealed interface Op {
  Batch apply(Batch batch);

  /** Keeps the rows whose condition is true: evaluated conjunct by conjunct, each on the rows still selected. */
  record Filter(List<Expr> conjuncts) implements Op {
    public Filter {
      conjuncts = List.copyOf(conjuncts);
    }

    @Override
    public Batch apply(Batch batch) {
      Batch current = batch;
      int[] count = new int[1];
      for (Expr conjunct : conjuncts) {
        if (current.size() == 0) {
          return current;
        }
        int[] positions = conjunct.trueRows(current, count);
        if (count[0] < current.size()) {
          current = current.select(positions, count[0]);
        }
      }
      return current;
    }
  }

  /** Computes new columns. */
  record Project(List<Expr> expressions) implements Op {
    public Project {
      expressions = List.copyOf(expressions);
    }

    @Override
    public Batch apply(Batch batch) {
      Col[] columns = new Col[expressions.size()];
      for (int i = 0; i < columns.length; i++) {
        columns[i] = expressions.get(i).eval(batch);
      }
      return Batch.of(columns, batch.size());
    }
  }
}
