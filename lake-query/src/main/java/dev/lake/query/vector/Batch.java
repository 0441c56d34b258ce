package dev.lake.query.vector;

/** The selected rows of one batch, column by column; columns are materialized on first use. */
interface Batch {
  int size();

  Col column(int index);

  /** The rows at {@code positions[0..count)} of this batch (a selection vector). */
  Batch select(int[] positions, int count);

  /** The {@code count} consecutive row numbers from {@code from}: a selection of a contiguous range. */
  static int[] range(int from, int count) {
    int[] rows = new int[count];
    for (int i = 0; i < count; i++) {
      rows[i] = from + i;
    }
    return rows;
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
