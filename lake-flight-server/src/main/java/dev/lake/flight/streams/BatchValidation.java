package dev.lake.flight.streams;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.ValueVectorUtility;

/**
 * Checks one incoming batch after Arrow loaded it and before Lance's native code reads it: every buffer long enough
 * for the row count and the type, offsets monotonic and inside the data, validity bitmaps covering every row (Arrow's
 * {@link ValueVectorUtility#validateFull}), and UTF-8 in string columns. A batch that fails is refused with
 * INVALID_ARGUMENT naming the column; nothing is written.
 */
public final class BatchValidation {
  private BatchValidation() {}

  /** @param batch the batch's number in its stream (1-based), for the message */
  public static void check(VectorSchemaRoot root, long batch) {
    List<FieldVector> vectors = root.getFieldVectors();
    for (FieldVector v : vectors) {
      if (v.getValueCount() != root.getRowCount()) {
        throw invalid(batch, v, "it holds " + v.getValueCount() + " values for " + root.getRowCount() + " rows");
      }
      try {
        if (v instanceof org.apache.arrow.vector.DecimalVector d) {
          // Arrow's full validation also reads the value slots of NULL rows, which clients (pyarrow) may leave
          // holding any bytes: check the structure, then only the values that are there.
          ValueVectorUtility.validate(v);
          decimals(batch, d);
        } else {
          ValueVectorUtility.validateFull(v);
        }
      } catch (RuntimeException e) {
        throw invalid(batch, v, "its buffers do not match its type and row count (" + e.getMessage() + ")");
      }
      if (v instanceof VarCharVector s) {
        utf8(batch, v, s.getDataBuffer(), 0, s.getValueCount() == 0 ? 0 : offset(s, s.getValueCount()));
      } else if (v instanceof LargeVarCharVector s) {
        utf8(batch, v, s.getDataBuffer(), 0, s.getValueCount() == 0 ? 0 : largeOffset(s, s.getValueCount()));
      }
    }
  }

  /** Every non-NULL value of a DECIMAL column fits its declared precision. */
  private static void decimals(long batch, org.apache.arrow.vector.DecimalVector d) {
    int precision = d.getPrecision();
    for (int i = 0; i < d.getValueCount(); i++) {
      if (!d.isNull(i) && d.getObject(i).precision() > precision) {
        throw new IllegalArgumentException("the value at row " + i + " does not fit DECIMAL(" + precision + ", "
            + d.getScale() + ")");
      }
    }
  }

  private static long offset(BaseVariableWidthVector v, int index) {
    return v.getOffsetBuffer().getInt((long) index * BaseVariableWidthVector.OFFSET_WIDTH);
  }

  private static long largeOffset(BaseLargeVariableWidthVector v, int index) {
    return v.getOffsetBuffer().getLong((long) index * BaseLargeVariableWidthVector.OFFSET_WIDTH);
  }

  /** Whether bytes [from, to) of {@code data} are well-formed UTF-8 (no overlongs, surrogates or values > U+10FFFF). */
  static void utf8(long batch, FieldVector v, ArrowBuf data, long from, long to) {
    long i = from;
    while (i < to) {
      if (i + 8 <= to && (data.getLong(i) & 0x8080808080808080L) == 0) {
        i += 8;
        continue;
      }
      int b = data.getByte(i) & 0xff;
      if (b < 0x80) {
        i++;
        continue;
      }
      int n;
      int min;
      int cp;
      if (b >= 0xc2 && b <= 0xdf) {
        n = 1;
        min = 0x80;
        cp = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        n = 2;
        min = 0x800;
        cp = b & 0x0f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        n = 3;
        min = 0x10000;
        cp = b & 0x07;
      } else {
        throw invalid(batch, v, "it holds a byte sequence that is not UTF-8 at byte " + (i - from));
      }
      for (int k = 1; k <= n; k++) {
        if (i + k >= to) {
          throw invalid(batch, v, "it holds a truncated UTF-8 sequence at byte " + (i - from));
        }
        int c = data.getByte(i + k) & 0xff;
        if ((c & 0xc0) != 0x80) {
          throw invalid(batch, v, "it holds a byte sequence that is not UTF-8 at byte " + (i - from));
        }
        cp = (cp << 6) | (c & 0x3f);
      }
      if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        throw invalid(batch, v, "it holds a byte sequence that is not UTF-8 at byte " + (i - from));
      }
      i += n + 1;
    }
  }

  private static LakeException invalid(long batch, FieldVector v, String why) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT, "the ingest stream was refused: column '"
        + v.getField().getName() + "' of batch " + batch + " is invalid: " + why + "; nothing was written");
  }
}
