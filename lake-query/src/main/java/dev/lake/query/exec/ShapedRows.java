package dev.lake.query.exec;

import dev.lake.query.exec.ValueReaders.ValueReader;
import dev.lake.query.plan.RowShape;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of the Arrow batch a reader holds now, as Calcite wants them ({@link RowShape}: a scalar, an object array
 * or a list per row); a row's values are converted only when it is asked for.
 */
final class ShapedRows {
  private final RowShape shape;
  private ValueReader[] columns = new ValueReader[0];

  ShapedRows(RowShape shape) {
    this.shape = shape;
  }

  /** Reads from {@code readers} (one per column of the batch) from now on. */
  void bind(ValueReader[] readers) {
    this.columns = readers;
  }

  Object rowAt(int index) {
    switch (shape) {
      case SCALAR:
        return columns[0].read(index);
      case ARRAY:
        return values(index);
      default:
        return columns.length == 0 ? List.of() : Arrays.asList(values(index));
    }
  }

  private Object[] values(int index) {
    Object[] values = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      values[i] = columns[i].read(index);
    }
    return values;
  }
}
