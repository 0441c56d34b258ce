package dev.lake.query.vector;

/** A scalar expression evaluated a batch at a time over the batch's selected rows. */
public interface Expr {
  Kind kind();

  /** Decimal scale of a LONG result (0 for integers, dates and other kinds). */
  int scale();

  Col eval(Batch batch);

  /**
   * The positions of the batch's rows where this (BOOL) expression is true, neither false nor NULL; their number in
   * {@code count[0]}. Comparisons with a constant override it with one fused loop.
   */
  default int[] trueRows(Batch batch, int[] count) {
    return Logic.trueRows(eval(batch), count);
  }

  /** A BOOL expression (comparisons and logic): kind BOOL, scale 0. */
  interface Bool extends Expr {
    @Override
    default Kind kind() {
      return Kind.BOOL;
    }

    @Override
    default int scale() {
      return 0;
    }
  }

  /** A column of the input batch. */
  record Input(int index, Kind kind, int scale) implements Expr {
    @Override
    public Col eval(Batch batch) {
      return batch.column(index);
    }
  }

  /** A constant: one row, repeated to the batch's size. */
  record Literal(Col value) implements Expr {
    @Override
    public Kind kind() {
      return value.kind;
    }

    @Override
    public int scale() {
      return value.scale;
    }

    @Override
    public Col eval(Batch batch) {
      return value.repeat(batch.size());
    }
  }
}
