package dev.lake.query.vector;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * One Arrow vector of a loaded batch, with what every chunk of the batch would otherwise recompute: whether it has
 * NULLs (counting validity bits walks the whole vector) and little-endian views of its buffers (creating a view is
 * not free). Valid until the batch is reloaded.
 */
final class LoadedColumn {
  final FieldVector vector;
  final boolean hasNulls;
  private ByteBuffer data;
  private ByteBuffer offsets;

  private LoadedColumn(FieldVector vector) {
    this.vector = vector;
    this.hasNulls = vector.getNullCount() > 0;
  }

  static LoadedColumn[] of(List<FieldVector> vectors) {
    LoadedColumn[] columns = new LoadedColumn[vectors.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new LoadedColumn(vectors.get(i));
    }
    return columns;
  }

  /** The data buffer, {@code width} bytes per value (variable-width vectors: all their bytes). */
  ByteBuffer data(int width) {
    if (data == null) {
      long length = vector instanceof BaseVariableWidthVector
          ? offsets().getInt(vector.getValueCount() * BaseVariableWidthVector.OFFSET_WIDTH)
          : (long) vector.getValueCount() * width;
      data = vector.getDataBuffer().nioBuffer(0, (int) length).order(ByteOrder.LITTLE_ENDIAN);
    }
    return data;
  }

  /** The offset buffer of a variable-width vector. */
  ByteBuffer offsets() {
    if (offsets == null) {
      offsets = vector.getOffsetBuffer().nioBuffer(0, (vector.getValueCount() + 1)
          * BaseVariableWidthVector.OFFSET_WIDTH).order(ByteOrder.LITTLE_ENDIAN);
    }
    return offsets;
  }
}
