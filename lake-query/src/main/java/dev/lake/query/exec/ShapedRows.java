package dev.lake.query.exec;

import dev.lake.query.exec.ValueReaders.ValueReader;
import dev.lake.query.plan.types.RowShape;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A cursor over the rows of an Arrow reader's batches, one batch held at a time, as Calcite wants them
 * ({@link RowShape}: a scalar, an object array or a list per row); a row's values are converted only when it is
 * reached. How a batch's columns are read is the caller's ({@code readers}).
 */
final class ShapedRows {
  private final RowShape shape;
  private final Function<VectorSchemaRoot, ValueReader[]> readers;
  private ValueReader[] columns = new ValueReader[0];
  private int row = -1;
  private int rowCount;

  ShapedRows(RowShape shape, Function<VectorSchemaRoot, ValueReader[]> readers) {
    this.shape = shape;
    this.readers = readers;
  }

  /** Reads {@code batch} from its first row on (the next {@link #next} moves to that row). */
  void bind(VectorSchemaRoot batch) {
    columns = readers.apply(batch);
    rowCount = batch.getRowCount();
    row = -1;
  }

  /** Moves to the next row, loading {@code reader}'s next batches as needed; false when it has no more. */
  boolean next(ArrowReader reader) throws IOException {
    row++;
    while (row >= rowCount) {
      if (!reader.loadNextBatch()) {
        return false;
      }
      bind(reader.getVectorSchemaRoot());
      row = 0;
    }
    return true;
  }

  /** The current row. */
  Object current() {
    switch (shape) {
      case SCALAR:
        return columns[0].read(row);
      case ARRAY:
        return values();
      default:
        return columns.length == 0 ? List.of() : Arrays.asList(values());
    }
  }

  private Object[] values() {
    Object[] values = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      values[i] = columns[i].read(row);
    }
    return values;
  }
}
