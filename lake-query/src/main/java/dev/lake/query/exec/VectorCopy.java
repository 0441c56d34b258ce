package dev.lake.query.exec;

import dev.lake.query.exec.ValueReaders.ValueReader;
import dev.lake.query.exec.ValueWriters.ValueWriter;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VariableWidthFieldVector;

/**
 * Moves a stored column's batch into a result vector: its buffers are transferred when the types are equal (no
 * copy); view and large strings/binaries are copied down to Utf8/Binary; anything else (a stored column that the
 * statement casts to another unit) is converted value by value.
 */
final class VectorCopy {
  private VectorCopy() {}

  static void copy(FieldVector source, FieldVector target, int rows) {
    if (source.getField().getType().equals(target.getField().getType())) {
      source.makeTransferPair(target).transfer();
      target.setValueCount(rows);
      return;
    }
    target.clear();
    if (source instanceof VariableWidthFieldVector
        && (target instanceof VarCharVector || target instanceof VarBinaryVector)) {
      VariableWidthFieldVector from = (VariableWidthFieldVector) source;
      VariableWidthFieldVector to = (VariableWidthFieldVector) target;
      target.allocateNew();
      for (int i = 0; i < rows; i++) {
        if (source.isNull(i)) {
          target.setNull(i);
        } else {
          to.setSafe(i, from.get(i));
        }
      }
      target.setValueCount(rows);
      return;
    }
    target.allocateNew();
    ValueReader reader = ValueReaders.forVector(source);
    ValueWriter writer = ValueWriters.forVector(target);
    for (int i = 0; i < rows; i++) {
      writer.write(i, reader.read(i));
    }
    target.setValueCount(rows);
  }
}
