package dev.lake.query.vector;

/** The selected rows of one batch, column by column; columns are materialized on first use. */
interface Batch {
  int size();

  Col column(int index);

  /** The rows at {@code positions[0..count)} of this batch (a selection vector). */
  Batch select(int[] positions, int count);

  /** The positions 0..n-1: a selection of every row. */
  static int[] positions(int n) {
    int[] positions = new int[n];
    for (int i = 0; i < n; i++) {
      positions[i] = i;
    }
    return positions;
  }

  /** A batch of computed columns. */
  static Batch of(Col[] columns, int size) {
    return new Computed(columns, size);
  }

  /** Columns an operator computed. */
  final class Computed implements Batch {
    private final Col[] columns;
    private final int size;

    Computed(Col[] columns, int size) {
      this.columns = columns;
      this.size = size;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public Col column(int index) {
      return columns[index];
    }

    @Override
    public Batch select(int[] positions, int count) {
      Col[] selected = new Col[columns.length];
      for (int i = 0; i < columns.length; i++) {
        selected[i] = columns[i].select(positions, count);
      }
      return new Computed(selected, count);
    }
  }
}
