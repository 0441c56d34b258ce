package dev.lake.query.vector;

import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Rows of Arrow vectors through a selection vector (row indexes into the vectors, always ascending: readers copy the
 * span they cover in bulk). Valid only until the vectors are
 * reloaded: operators consume a batch before the next is read.
 */
final class ArrowBatch implements Batch {
  private final LoadedColumn[] vectors;
  private final int[] rows;
  private final int size;
  private final Col[] columns;

  private ArrowBatch(LoadedColumn[] vectors, int[] rows, int size) {
    this.vectors = vectors;
    this.rows = rows;
    this.size = size;
    this.columns = new Col[vectors.length];
  }

  /** Every row of {@code vectors}, which hold {@code rowCount} rows. */
  static ArrowBatch all(List<FieldVector> vectors, int rowCount) {
    return range(LoadedColumn.of(vectors), 0, rowCount);
  }

  /** Rows {@code from} (inclusive) to {@code to} (exclusive) of {@code vectors}. */
  static ArrowBatch range(LoadedColumn[] vectors, int from, int to) {
    int[] rows = new int[to - from];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = from + i;
    }
    return new ArrowBatch(vectors, rows, rows.length);
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public Col column(int index) {
    Col column = columns[index];
    if (column == null) {
      column = ColumnReader.read(vectors[index], rows, size);
      columns[index] = column;
    }
    return column;
  }

  @Override
  public Batch select(int[] positions, int count) {
    int[] selected = new int[count];
    for (int i = 0; i < count; i++) {
      selected[i] = rows[positions[i]];
    }
    ArrowBatch out = new ArrowBatch(vectors, selected, count);
    for (int c = 0; c < columns.length; c++) {
      if (columns[c] != null) {
        out.columns[c] = columns[c].select(positions, count);
      }
    }
    return out;
  }
}
