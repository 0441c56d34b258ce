package dev.lake.query.vector;

import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Scanned rows through a selection vector (row indexes into the scanned columns, always ascending: readers copy the
 * span they cover in bulk). The columns are Lance's loaded Arrow vectors — valid only until they are reloaded, so
 * operators consume a batch before the next is read — or a fragment's {@link CachedColumn}s. A column is read into a
 * {@link Col} on first use.
 */
final class ScanBatch implements Batch {
  /** Reads the given rows of one scanned column: {@code rows}, or when null the {@code size} rows from {@code from}. */
  @FunctionalInterface
  interface Columns {
    Col read(int column, int[] rows, int from, int size);
  }

  private final Columns source;
  /** The cached columns read, or null for Arrow vectors. */
  private final CachedColumn[] cached;
  /** The selected rows, ascending; null while they are the contiguous range from {@link #from}. */
  private final int[] rows;
  private final int from;
  private final int size;
  private final Col[] columns;

  private ScanBatch(Columns source, CachedColumn[] cached, int width, int[] rows, int from, int size) {
    this.source = source;
    this.cached = cached;
    this.rows = rows;
    this.from = from;
    this.size = size;
    this.columns = new Col[width];
  }

  /**
   * A LONG cached column's values where this batch's rows are a contiguous range of it: row i of the batch is element
   * {@code offset + i} of the one array {@link Direct} holds, plus {@code base} (null flags likewise). Null when the
   * column is not cached, holds values beyond a long, or the rows are not contiguous — the caller then reads
   * {@link #column}. Saves copying a column a comparison only tests.
   */
  Direct direct(int column) {
    if (cached == null || size == 0 || rows != null && rows[size - 1] - rows[0] != size - 1) {
      return null;
    }
    CachedColumn values = cached[column];
    return values.kind == Kind.LONG && !values.hasWide() ? values.direct(rows == null ? from : rows[0]) : null;
  }

  /**
   * See {@link #direct}: the values are in exactly one of {@code longs}, {@code ints}, {@code shorts} and
   * {@code tiny}; row i is its element {@code offset + i} plus {@code base} (0 with {@code longs}).
   */
  record Direct(long[] longs, int[] ints, short[] shorts, byte[] tiny, long base, boolean[] nulls, int offset,
      int scale) {
    /** Element {@code at} of whichever array holds the values (add {@link #base} for the value). */
    long held(int at) {
      if (ints != null) {
        return ints[at];
      }
      if (shorts != null) {
        return shorts[at];
      }
      return tiny != null ? tiny[at] : longs[at];
    }
  }

  /** Every row of {@code vectors}, which hold {@code rowCount} rows. */
  static ScanBatch all(List<FieldVector> vectors, int rowCount) {
    return range(LoadedColumn.of(vectors), 0, rowCount);
  }

  /** Rows {@code from} (inclusive) to {@code to} (exclusive) of loaded Arrow vectors. */
  static ScanBatch range(LoadedColumn[] vectors, int from, int to) {
    return new ScanBatch((c, rows, first, size) -> ColumnReader.read(vectors[c],
        rows != null ? rows : Batch.range(first, size), size), null, vectors.length, null, from, to - from);
  }

  /** Rows {@code from} (inclusive) to {@code to} (exclusive) of a fragment's cached columns. */
  static ScanBatch range(CachedColumn[] cached, int from, int to) {
    return new ScanBatch((c, rows, first, size) -> cached[c].read(rows, first, size), cached, cached.length, null,
        from, to - from);
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public Col column(int index) {
    Col column = columns[index];
    if (column == null) {
      column = source.read(index, rows, from, size);
      columns[index] = column;
    }
    return column;
  }

  @Override
  public Batch select(int[] positions, int count) {
    int[] selected = new int[count];
    if (rows == null) {
      for (int i = 0; i < count; i++) {
        selected[i] = from + positions[i];
      }
    } else {
      for (int i = 0; i < count; i++) {
        selected[i] = rows[positions[i]];
      }
    }
    ScanBatch out = new ScanBatch(source, cached, columns.length, selected, 0, count);
    for (int c = 0; c < columns.length; c++) {
      if (columns[c] != null) {
        out.columns[c] = columns[c].select(positions, count);
      }
    }
    return out;
  }
}
