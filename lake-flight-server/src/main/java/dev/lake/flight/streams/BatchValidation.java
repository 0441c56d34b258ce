package dev.lake.flight.streams;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.ValueVectorUtility;

/**
 * Checks one incoming batch after Arrow loaded it and before Lance's native code reads it: every buffer long enough
 * for the row count and the type, validity bitmaps covering every row (Arrow's {@link ValueVectorUtility#validate};
 * {@link ValueVectorUtility#validateFull} for nested and other types), offsets monotonic and inside the data, UTF-8 in
 * string columns with every value starting at a character boundary, decimals within their precision. String,
 * binary and decimal columns are checked here in one pass each rather than by Arrow's full validation, which
 * formats a message for every string it checks and builds a BigDecimal for every decimal. A batch that fails is refused with
 * INVALID_ARGUMENT naming the column; nothing is written.
 */
public final class BatchValidation {
  /** 10^0 .. 10^18: every power of ten a long holds. */
  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

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
          continue;
        }
        if (v instanceof BaseVariableWidthVector || v instanceof BaseLargeVariableWidthVector) {
          // Arrow's full validation of a string column formats a message for every value it checks (most of an
          // ingest's time): check the structure, then the offsets and the UTF-8 here, in one pass each.
          ValueVectorUtility.validate(v);
        } else {
          ValueVectorUtility.validateFull(v);
        }
      } catch (RuntimeException e) {
        throw invalid(batch, v, "its buffers do not match its type and row count (" + e.getMessage() + ")");
      }
      if (v instanceof BaseVariableWidthVector s) {
        variableWidth(batch, v, s.getOffsetBuffer(), BaseVariableWidthVector.OFFSET_WIDTH, s.getDataBuffer(),
            v instanceof VarCharVector);
      } else if (v instanceof BaseLargeVariableWidthVector s) {
        variableWidth(batch, v, s.getOffsetBuffer(), BaseLargeVariableWidthVector.OFFSET_WIDTH, s.getDataBuffer(),
            v instanceof LargeVarCharVector);
      }
    }
  }

  /**
   * The offsets of a string or binary column: the first not negative, none going backwards, the last inside the data
   * (Arrow's structural check saw the buffers are long enough for the count); for a string column the bytes they
   * span are UTF-8 and every value starts at a character boundary (so each value on its own is UTF-8).
   */
  private static void variableWidth(long batch, FieldVector v, ArrowBuf offsets, int width, ArrowBuf data,
      boolean text) {
    int count = v.getValueCount();
    if (count == 0) {
      return;
    }
    if (offsets.capacity() < (count + 1L) * width) {
      throw invalid(batch, v, "its offset buffer holds " + offsets.capacity() + " bytes for " + count + " rows");
    }
    long first = offsetAt(offsets.memoryAddress(), width, 0);
    long last = offsetAt(offsets.memoryAddress(), width, count);
    if (first < 0 || last < first || last > data.capacity()) {
      throw invalid(batch, v, "its offsets span bytes " + first + " to " + last + " of a " + data.capacity()
          + "-byte data buffer");
    }
    // Every read below is inside the bounds just checked: offsets [0, count] of the offset buffer, data bytes in
    // [first, last). So the loops read memory directly rather than through ArrowBuf's per-call checks.
    long offsetsAddress = offsets.memoryAddress();
    long dataAddress = data.memoryAddress();
    long previous = first;
    for (int i = 1; i <= count; i++) {
      long next = offsetAt(offsetsAddress, width, i);
      if (next < previous) {
        throw invalid(batch, v, "its offsets go backwards at row " + (i - 1) + " (" + previous + " then " + next
            + ")");
      }
      // next >= previous >= first >= 0, so next < last is inside the data
      if (text && next < last && (MemoryUtil.getByte(dataAddress + next) & 0xc0) == 0x80) {
        throw invalid(batch, v, "the value at row " + i + " starts inside a UTF-8 sequence");
      }
      previous = next;
    }
    if (text) {
      utf8(batch, v, data, first, last);
    }
  }

  /** The offset at {@code index} of an offset buffer at {@code address} (the caller checked its length). */
  private static long offsetAt(long address, int width, int index) {
    return width == 4 ? MemoryUtil.getInt(address + (long) index * 4) : MemoryUtil.getLong(address + (long) index * 8);
  }

  /**
   * Every non-NULL value of a DECIMAL column fits its declared precision: |unscaled| < 10^precision. Values that fit
   * in a long (nearly all) are compared without building a BigDecimal.
   */
  private static void decimals(long batch, org.apache.arrow.vector.DecimalVector d) {
    int precision = d.getPrecision();
    int count = d.getValueCount();
    ArrowBuf values = d.getDataBuffer();
    ArrowBuf validity = d.getValidityBuffer();
    if (values.capacity() < (long) count * org.apache.arrow.vector.DecimalVector.TYPE_WIDTH
        || validity.capacity() < (count + 7L) / 8) {
      throw new IllegalArgumentException("its buffers are too short for " + count + " values");
    }
    // inside the bounds just checked: read memory directly rather than through ArrowBuf's per-call checks
    long valuesAddress = values.memoryAddress();
    long validityAddress = validity.memoryAddress();
    long bound = precision >= POWERS_OF_TEN.length ? Long.MAX_VALUE : POWERS_OF_TEN[precision];
    for (int i = 0; i < count; i++) {
      if ((MemoryUtil.getByte(validityAddress + (i >> 3)) & (1 << (i & 7))) == 0) {
        continue;
      }
      long at = valuesAddress + (long) i * org.apache.arrow.vector.DecimalVector.TYPE_WIDTH;
      long low = MemoryUtil.getLong(at);
      long high = MemoryUtil.getLong(at + 8);
      boolean fits;
      if (high == (low >> 63) && low != Long.MIN_VALUE) {
        fits = precision >= POWERS_OF_TEN.length || Math.abs(low) < bound;
      } else {
        fits = d.getObject(i).precision() <= precision;
      }
      if (!fits) {
        throw new IllegalArgumentException("the value at row " + i + " does not fit DECIMAL(" + precision + ", "
            + d.getScale() + ")");
      }
    }
  }

  /** Whether bytes [from, to) of {@code data} are well-formed UTF-8 (no overlongs, surrogates or values > U+10FFFF). */
  static void utf8(long batch, FieldVector v, ArrowBuf data, long from, long to) {
    if (from < 0 || to < from || to > data.capacity()) {
      throw new IndexOutOfBoundsException("bytes " + from + " to " + to + " of a " + data.capacity() + "-byte buffer");
    }
    // inside the bounds just checked: read memory directly rather than through ArrowBuf's per-call checks
    long address = data.memoryAddress();
    long i = from;
    while (i < to) {
      if (i + 8 <= to && (MemoryUtil.getLong(address + i) & 0x8080808080808080L) == 0) {
        i += 8;
        continue;
      }
      int b = MemoryUtil.getByte(address + i) & 0xff;
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
        int c = MemoryUtil.getByte(address + i + k) & 0xff;
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
