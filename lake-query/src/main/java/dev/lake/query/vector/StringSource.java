package dev.lake.query.vector;

import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;

/** The bytes of a STRING column's rows: read in place from an Arrow vector, or held in arrays. */
abstract class StringSource {
  abstract byte[] bytes(int i);

  /** A hash of row i's bytes, the same for equal bytes whatever the source. */
  abstract int hash(int i);

  /** Whether row i's bytes equal {@code other}. */
  abstract boolean equalTo(int i, byte[] other);

  abstract StringSource select(int[] positions, int count);

  static int hash(byte[] bytes) {
    if (bytes == null) {
      return 0;
    }
    int h = 1;
    for (byte b : bytes) {
      h = 31 * h + b;
    }
    return h;
  }

  static StringSource of(byte[][] values) {
    return new Held(values);
  }

  static StringSource of(BaseVariableWidthVector vector, int[] rows) {
    return new InArrow(vector, rows);
  }

  private static final class Held extends StringSource {
    private final byte[][] values;

    Held(byte[][] values) {
      this.values = values;
    }

    @Override
    byte[] bytes(int i) {
      return values[i];
    }

    @Override
    int hash(int i) {
      return hash(values[i]);
    }

    @Override
    boolean equalTo(int i, byte[] other) {
      return Arrays.equals(values[i], other);
    }

    @Override
    StringSource select(int[] positions, int count) {
      byte[][] out = new byte[count][];
      for (int i = 0; i < count; i++) {
        out[i] = values[positions[i]];
      }
      return new Held(out);
    }
  }

  /** Rows of a variable-width vector, through a row index per position (the batch's selection). */
  private static final class InArrow extends StringSource {
    private final BaseVariableWidthVector vector;
    private final ArrowBuf data;
    private final ArrowBuf offsets;
    private final int[] rows;

    InArrow(BaseVariableWidthVector vector, int[] rows) {
      this.vector = vector;
      this.data = vector.getDataBuffer();
      this.offsets = vector.getOffsetBuffer();
      this.rows = rows;
    }

    private int start(int i) {
      return offsets.getInt((long) rows[i] * BaseVariableWidthVector.OFFSET_WIDTH);
    }

    private int end(int i) {
      return offsets.getInt((long) (rows[i] + 1) * BaseVariableWidthVector.OFFSET_WIDTH);
    }

    @Override
    byte[] bytes(int i) {
      int start = start(i);
      byte[] out = new byte[end(i) - start];
      data.getBytes(start, out);
      return out;
    }

    @Override
    int hash(int i) {
      int h = 1;
      for (int p = start(i), end = end(i); p < end; p++) {
        h = 31 * h + data.getByte(p);
      }
      return h;
    }

    @Override
    boolean equalTo(int i, byte[] other) {
      int start = start(i);
      if (end(i) - start != other.length) {
        return false;
      }
      for (int k = 0; k < other.length; k++) {
        if (data.getByte(start + k) != other[k]) {
          return false;
        }
      }
      return true;
    }

    @Override
    StringSource select(int[] positions, int count) {
      int[] selected = new int[count];
      for (int i = 0; i < count; i++) {
        selected[i] = rows[positions[i]];
      }
      return new InArrow(vector, selected);
    }
  }
}
