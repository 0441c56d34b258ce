package dev.lake.query.exec;

import dev.lake.query.exec.ValueReaders.ValueReader;
import dev.lake.query.exec.ValueWriters.ValueWriter;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Moves a stored column's batch into a result vector: its buffers are transferred when the types are equal (no
 * copy); a TINYINT 0/1 becomes a BOOLEAN (how Lance's SQL engine answers BOOLEAN columns); other string/binary layouts (view, large, plain) are copied value by value; decimals of the same scale keep their
 * unscaled values (only the declared precision differs); timestamps are rescaled exactly between units; anything
 * else (a stored column that the statement casts to another unit, a 32-bit integer Lance's SQL engine returned for a
 * BIGINT) is converted value by value.
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
        && (target instanceof VarCharVector || target instanceof VarBinaryVector
        || target instanceof LargeVarCharVector || target instanceof LargeVarBinaryVector)) {
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
    if (source instanceof DecimalVector && target instanceof DecimalVector
        && ((DecimalVector) source).getScale() == ((DecimalVector) target).getScale()) {
      copyDecimals((DecimalVector) source, (DecimalVector) target, rows);
      return;
    }
    if (source instanceof TinyIntVector && target instanceof BitVector) {
      copyBooleans((TinyIntVector) source, (BitVector) target, rows);
      return;
    }
    if (source instanceof TimeStampVector && target instanceof TimeStampVector) {
      copyTimestamps((TimeStampVector) source, (TimeStampVector) target, rows);
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

  /** A BOOLEAN column Lance's SQL engine answered as TINYINT 0/1 (LanceSqlGenerator says why). */
  private static void copyBooleans(TinyIntVector source, BitVector target, int rows) {
    target.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      Boolean value = ValueReaders.booleanOf(source.isNull(i) ? null : source.get(i));
      if (value == null) {
        target.setNull(i);
      } else {
        target.set(i, value ? 1 : 0);
      }
    }
    target.setValueCount(rows);
  }

  /** Same scale: the unscaled 128-bit values and the validity bits are copied as they are. */
  private static void copyDecimals(DecimalVector source, DecimalVector target, int rows) {
    target.allocateNew(rows);
    target.getDataBuffer().setBytes(0, source.getDataBuffer(), 0, (long) rows * DecimalVector.TYPE_WIDTH);
    target.getValidityBuffer().setBytes(0, source.getValidityBuffer(), 0, (rows + 7) / 8);
    target.setValueCount(rows);
  }

  /** Rescales between units: exact towards finer units, floored towards coarser ones. */
  private static void copyTimestamps(TimeStampVector source, TimeStampVector target, int rows) {
    long from = nanosPer(((ArrowType.Timestamp) source.getField().getType()).getUnit());
    long to = nanosPer(((ArrowType.Timestamp) target.getField().getType()).getUnit());
    target.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      if (source.isNull(i)) {
        target.setNull(i);
      } else {
        long value = source.get(i);
        target.setSafe(i, from >= to ? Math.multiplyExact(value, from / to) : Math.floorDiv(value, to / from));
      }
    }
    target.setValueCount(rows);
  }

  private static long nanosPer(TimeUnit unit) {
    switch (unit) {
      case SECOND: return 1_000_000_000L;
      case MILLISECOND: return 1_000_000L;
      case MICROSECOND: return 1_000L;
      default: return 1L;
    }
  }
}
