package dev.lake.query.vector;

import java.util.Arrays;
import java.nio.ByteOrder;
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

  /**
   * Whether each row's bytes match {@code like}, into {@code out} (1 or 0; rows that are null are the caller's to
   * mark). Sources override this to match in place, without copying each value.
   */
  void like(Like like, int n, long[] out) {
    for (int i = 0; i < n; i++) {
      byte[] value = bytes(i);
      out[i] = like.matches(value, 0, value.length) ? 1 : 0;
    }
  }

  /** Row i's bytes packed into a long with its length (bits 56-63), when at most 7 bytes; -1 otherwise. */
  long inline(int i) {
    return pack(bytes(i));
  }

  /** The longest value {@link #pack} packs into one long, in bytes. */
  static final int MAX_PACKED = 7;

  static long pack(byte[] bytes) {
    if (bytes.length > MAX_PACKED) {
      return -1;
    }
    long code = (long) bytes.length << 56;
    for (int k = 0; k < bytes.length; k++) {
      code |= (bytes[k] & 0xFFL) << (8 * k);
    }
    return code;
  }

  /** The bytes of a code {@link #pack} made. */
  static byte[] unpack(long code) {
    byte[] bytes = new byte[(int) (code >>> 56)];
    for (int k = 0; k < bytes.length; k++) {
      bytes[k] = (byte) (code >>> (8 * k));
    }
    return bytes;
  }

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

  static StringSource of(LoadedColumn column, int[] rows) {
    return new InArrow(column, rows);
  }

  /** Rows {@code rows} of strings held as one byte array and its offsets (a cached column); shares the arrays. */
  static StringSource of(byte[] data, int[] offsets, int[] rows) {
    return new InArrow(data, offsets, rows);
  }

  /**
   * Rows held as codes into a dictionary of distinct values (a cached low-cardinality column); {@code inline} and
   * {@code hashes} are each value's {@link #pack} code and {@link #hash}, computed once.
   */
  static StringSource dictionary(byte[][] values, long[] inline, int[] hashes, int[] codes) {
    return new Dictionary(values, inline, hashes, codes);
  }

  /** Dictionary codes, for group keys of few distinct values. */
  static final class Dictionary extends StringSource {
    final byte[][] values;
    private final long[] inline;
    private final int[] hashes;
    final int[] codes;

    private Dictionary(byte[][] values, long[] inline, int[] hashes, int[] codes) {
      this.values = values;
      this.inline = inline;
      this.hashes = hashes;
      this.codes = codes;
    }

    @Override
    byte[] bytes(int i) {
      return values[codes[i]];
    }

    @Override
    int hash(int i) {
      return hashes[codes[i]];
    }

    @Override
    boolean equalTo(int i, byte[] other) {
      return Arrays.equals(values[codes[i]], other);
    }

    @Override
    long inline(int i) {
      return inline[codes[i]];
    }

    /** Each distinct value is matched once per batch when there are no more values than rows. */
    @Override
    void like(Like like, int n, long[] out) {
      if (values.length > n) {
        super.like(like, n, out);
        return;
      }
      byte[] known = new byte[values.length]; // 0 not matched yet, 1 no, 2 yes
      for (int i = 0; i < n; i++) {
        int code = codes[i];
        byte k = known[code];
        if (k == 0) {
          byte[] value = values[code];
          k = like.matches(value, 0, value.length) ? (byte) 2 : (byte) 1;
          known[code] = k;
        }
        out[i] = k - 1;
      }
    }

    @Override
    StringSource select(int[] positions, int count) {
      int[] selected = new int[count];
      for (int i = 0; i < count; i++) {
        selected[i] = codes[positions[i]];
      }
      return new Dictionary(values, inline, hashes, selected);
    }
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

  /**
   * Rows of a variable-width vector, through a row index per position (the batch's selection); the vector's bytes
   * and offsets are copied into arrays once (bulk copies), so per-row work is plain array access.
   */
  private static final class InArrow extends StringSource {
    private final byte[] data;
    private final int[] offsets;
    private final int[] rows;

    /** Copies the span of the vector that {@code rows} (ascending) covers; rows are re-based onto it. */
    InArrow(LoadedColumn column, int[] rows) {
      int first = rows.length == 0 ? 0 : rows[0];
      int last = rows.length == 0 ? -1 : rows[rows.length - 1];
      this.offsets = new int[last - first + 2];
      column.offsets().asIntBuffer().get(first, offsets);
      int base = offsets[0];
      this.data = new byte[offsets[offsets.length - 1] - base];
      column.data(1).get(base, data);
      for (int k = 0; k < offsets.length; k++) {
        offsets[k] -= base;
      }
      this.rows = new int[rows.length];
      for (int i = 0; i < rows.length; i++) {
        this.rows[i] = rows[i] - first;
      }
    }

    private InArrow(byte[] data, int[] offsets, int[] rows) {
      this.data = data;
      this.offsets = offsets;
      this.rows = rows;
    }

    @Override
    byte[] bytes(int i) {
      int row = rows[i];
      return Arrays.copyOfRange(data, offsets[row], offsets[row + 1]);
    }

    @Override
    void like(Like like, int n, long[] out) {
      for (int i = 0; i < n; i++) {
        int row = rows[i];
        out[i] = like.matches(data, offsets[row], offsets[row + 1]) ? 1 : 0;
      }
    }

    @Override
    int hash(int i) {
      int row = rows[i];
      int h = 1;
      for (int p = offsets[row], end = offsets[row + 1]; p < end; p++) {
        h = 31 * h + data[p];
      }
      return h;
    }

    @Override
    boolean equalTo(int i, byte[] other) {
      int row = rows[i];
      int start = offsets[row];
      return Arrays.equals(data, start, offsets[row + 1], other, 0, other.length);
    }

    /** Row i's bytes packed into a long with its length, when at most 7 bytes; -1 otherwise. */
    @Override
    long inline(int i) {
      int row = rows[i];
      int start = offsets[row];
      int length = offsets[row + 1] - start;
      if (length > 7) {
        return -1;
      }
      long code = (long) length << 56;
      for (int k = 0; k < length; k++) {
        code |= (data[start + k] & 0xFFL) << (8 * k);
      }
      return code;
    }

    @Override
    StringSource select(int[] positions, int count) {
      int[] selected = new int[count];
      for (int i = 0; i < count; i++) {
        selected[i] = rows[positions[i]];
      }
      return new InArrow(data, offsets, selected);
    }
  }
}
