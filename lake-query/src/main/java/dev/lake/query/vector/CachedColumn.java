package dev.lake.query.vector;

import java.math.BigDecimal;
import java.util.Arrays;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * One column of one fragment of a pinned table version, decoded once into Java arrays in the executor's
 * representation ({@link Col}): unscaled longs (DATE as days, DECIMAL unscaled, values beyond a long kept per row as
 * BigDecimal), doubles, 0/1 longs for booleans, and strings as one byte array with offsets or — when they have few
 * distinct values — as codes into a dictionary. Immutable once built; shared by every query that reads the same
 * version ({@link ColumnCache}).
 */
final class CachedColumn {
  /** Strings with at most this many distinct values in a fragment are held as dictionary codes. */
  static final int MAX_DICTIONARY = 1 << 16;

  final Kind kind;
  final int scale;
  final int rows;
  /**
   * A LONG column's values, held in the narrowest of these four its range of values in the fragment fits (row i is
   * {@code held[i] + base}, wrapping; the other three null): a scan streams through a quarter or an eighth of the
   * memory, and the cache holds four to eight times the rows (most keys fit an int, dates and small decimals a short,
   * discounts and flags a byte).
   */
  private final long[] longs;
  private final int[] ints;
  private final short[] shorts;
  private final byte[] tiny;
  private final long base;
  private final double[] doubles;
  private final boolean[] nulls;
  private final BigDecimal[] wide;
  private final byte[] data;
  private final int[] offsets;
  private final byte[][] dictionary;
  private final long[] inline;
  private final int[] hashes;
  /** A dictionary column's codes: as unsigned bytes when there are at most 256 values, else as chars. */
  private final byte[] codes8;
  private final char[] codes16;
  private final long bytes;

  private CachedColumn(Builder b, byte[][] dictionary, int[] codes) {
    this.kind = b.kind;
    this.scale = b.scale;
    this.rows = b.rows;
    Narrow narrow = b.longs == null || b.wide != null || b.kind != Kind.LONG ? null : Narrow.of(b);
    this.ints = narrow == null ? null : narrow.ints;
    this.shorts = narrow == null ? null : narrow.shorts;
    this.tiny = narrow == null ? null : narrow.tiny;
    this.base = narrow == null ? 0 : narrow.base;
    this.longs = b.longs == null || narrow != null ? null : Arrays.copyOf(b.longs, b.rows);
    this.doubles = b.doubles == null ? null : Arrays.copyOf(b.doubles, b.rows);
    this.nulls = b.anyNull ? Arrays.copyOf(b.nulls, b.rows) : null;
    this.wide = b.wide == null ? null : Arrays.copyOf(b.wide, b.rows);
    this.dictionary = dictionary;
    if (dictionary != null) {
      this.codes8 = dictionary.length <= 256 ? new byte[rows] : null;
      this.codes16 = codes8 == null ? new char[rows] : null;
      for (int r = 0; r < rows; r++) {
        if (codes8 != null) {
          codes8[r] = (byte) codes[r];
        } else {
          codes16[r] = (char) codes[r];
        }
      }
      this.data = null;
      this.offsets = null;
      this.inline = new long[dictionary.length];
      this.hashes = new int[dictionary.length];
      long held = 0;
      for (int d = 0; d < dictionary.length; d++) {
        inline[d] = StringSource.pack(dictionary[d]);
        hashes[d] = StringSource.hash(dictionary[d]);
        held += dictionary[d].length + 32L;
      }
      this.bytes = held + (codes8 != null ? 1L : 2L) * rows;
    } else {
      this.codes8 = null;
      this.codes16 = null;
      this.data = b.data == null ? null : Arrays.copyOf(b.data, b.dataLength);
      this.offsets = b.offsets == null ? null : Arrays.copyOf(b.offsets, b.rows + 1);
      this.inline = null;
      this.hashes = null;
      long perRow = longs != null ? 8 : ints != null ? 4 : shorts != null ? 2 : tiny != null ? 1 : 0;
      this.bytes = perRow * rows + (doubles == null ? 0 : 8L * rows)
          + (data == null ? 0 : data.length + 4L * rows) + (wide == null ? 0 : 8L * rows + 64L * b.wideCount);
    }
  }

  /**
   * A LONG column's values as held (no copy: never write): exactly one of the arrays is set, and row i is its
   * element i plus {@code base}.
   */
  ScanBatch.Direct direct(int offset) {
    return new ScanBatch.Direct(longs, ints, shorts, tiny, base, nulls, offset, scale);
  }

  /** A LONG column's values in the narrowest array their range fits, the others null; row i = held + base. */
  private record Narrow(int[] ints, short[] shorts, byte[] tiny, long base) {
    static Narrow of(Builder b) {
      long[] values = b.longs;
      int rows = b.rows;
      boolean[] nulls = b.anyNull ? b.nulls : null;
      LongSpan range = LongSpan.of(values, nulls, rows);
      long min = range == null ? 0 : range.min(); // every row NULL: held as zeros
      long span = range == null ? 0 : range.width();
      if (Long.compareUnsigned(span, 0xFFL) <= 0) {
        long base = min + 128;
        byte[] out = new byte[rows];
        for (int i = 0; i < rows; i++) {
          out[i] = nulls != null && nulls[i] ? 0 : (byte) (values[i] - base);
        }
        return new Narrow(null, null, out, base);
      }
      if (Long.compareUnsigned(span, 0xFFFFL) <= 0) {
        long base = min + 32768;
        short[] out = new short[rows];
        for (int i = 0; i < rows; i++) {
          out[i] = nulls != null && nulls[i] ? 0 : (short) (values[i] - base);
        }
        return new Narrow(null, out, null, base);
      }
      if (Long.compareUnsigned(span, 0xFFFFFFFFL) <= 0) {
        long base = min + (1L << 31);
        int[] out = new int[rows];
        for (int i = 0; i < rows; i++) {
          out[i] = nulls != null && nulls[i] ? 0 : (int) (values[i] - base);
        }
        return new Narrow(out, null, null, base);
      }
      return null;
    }
  }

  /** Null flags, or null when no row is null (no copy: never write). */
  boolean[] nulls() {
    return nulls;
  }

  /** Whether some value did not fit a long (held as BigDecimal). */
  boolean hasWide() {
    return wide != null;
  }

  /** Heap bytes held (approximately), the cache's weight. */
  long bytes() {
    return bytes + (nulls == null ? 0 : rows) + 64;
  }

  /** Rows {@code rows[0..size)} (ascending) as a working column; null rows: the {@code size} rows from {@code from}. */
  Col read(int[] rows, int from, int size) {
    if (rows == null && (kind == Kind.STRING || nulls != null || wide != null)) {
      rows = Batch.range(from, size);
    }
    Col col = new Col(kind, size, scale);
    int first = rows == null ? from : size == 0 ? 0 : rows[0];
    boolean contiguous = rows == null || size == 0 || rows[size - 1] - first == size - 1;
    if (longs != null) {
      col.longs = contiguous ? Arrays.copyOfRange(longs, first, first + size) : gather(longs, rows, size);
    } else if (ints != null || shorts != null || tiny != null) {
      col.longs = widen(rows, first, size, contiguous);
    }
    if (doubles != null) {
      if (contiguous) {
        col.doubles = Arrays.copyOfRange(doubles, first, first + size);
      } else {
        col.doubles = new double[size];
        for (int i = 0; i < size; i++) {
          col.doubles[i] = doubles[rows[i]];
        }
      }
    }
    if (kind == Kind.STRING) {
      if (dictionary != null) {
        int[] selected = new int[size];
        if (codes8 != null) {
          for (int i = 0; i < size; i++) {
            selected[i] = codes8[rows[i]] & 0xFF;
          }
        } else {
          for (int i = 0; i < size; i++) {
            selected[i] = codes16[rows[i]];
          }
        }
        col.strings = StringSource.dictionary(dictionary, inline, hashes, selected);
      } else {
        col.strings = StringSource.of(data, offsets, rows);
      }
    }
    if (nulls != null) {
      boolean any = false;
      boolean[] out = new boolean[size];
      for (int i = 0; i < size; i++) {
        out[i] = nulls[rows[i]];
        any |= out[i];
      }
      col.nulls = any ? out : null;
    }
    if (wide != null) {
      BigDecimal[] out = new BigDecimal[size];
      boolean any = false;
      for (int i = 0; i < size; i++) {
        out[i] = wide[rows[i]];
        any |= out[i] != null;
      }
      col.wide = any ? out : null;
    }
    return col;
  }

  /** The narrow values of rows {@code rows[0..size)}, or of the {@code size} from {@code first}, as longs. */
  private long[] widen(int[] rows, int first, int size, boolean contiguous) {
    long[] out = new long[size];
    long b = base;
    if (ints != null) {
      if (contiguous) {
        for (int i = 0; i < size; i++) {
          out[i] = ints[first + i] + b;
        }
      } else {
        for (int i = 0; i < size; i++) {
          out[i] = ints[rows[i]] + b;
        }
      }
    } else if (shorts != null) {
      if (contiguous) {
        for (int i = 0; i < size; i++) {
          out[i] = shorts[first + i] + b;
        }
      } else {
        for (int i = 0; i < size; i++) {
          out[i] = shorts[rows[i]] + b;
        }
      }
    } else if (contiguous) {
      for (int i = 0; i < size; i++) {
        out[i] = tiny[first + i] + b;
      }
    } else {
      for (int i = 0; i < size; i++) {
        out[i] = tiny[rows[i]] + b;
      }
    }
    return out;
  }

  private static long[] gather(long[] values, int[] rows, int size) {
    long[] out = new long[size];
    for (int i = 0; i < size; i++) {
      out[i] = values[rows[i]];
    }
    return out;
  }

  /** Appends Lance's batches of one column, then {@link #build}s it. */
  static final class Builder {
    private final Kind kind;
    private final int scale;
    private int rows;
    private long[] longs;
    private double[] doubles;
    private boolean[] nulls;
    private boolean anyNull;
    private BigDecimal[] wide;
    private int wideCount;
    private byte[] data;
    private int dataLength;
    private int[] offsets;
    /** The longest string appended, in bytes. */
    private int maxLength;

    /** @param expectedRows the fragment's rows, to size the arrays once */
    Builder(Col shape, long expectedRows) {
      this.kind = shape.kind;
      this.scale = shape.scale;
      int capacity = (int) Math.max(16, Math.min(expectedRows, Integer.MAX_VALUE - 16));
      this.nulls = new boolean[capacity];
      switch (kind) {
        case DOUBLE:
          doubles = new double[capacity];
          break;
        case STRING:
          offsets = new int[capacity + 1];
          data = new byte[Math.max(64, capacity * 8)];
          break;
        default:
          longs = new long[capacity];
      }
    }

    /** Appends every row of {@code vector} (one loaded Lance batch). */
    void append(FieldVector vector) {
      int n = vector.getValueCount();
      ensure(rows + n);
      LoadedColumn loaded = LoadedColumn.of(java.util.List.of(vector))[0];
      if (kind == Kind.STRING) {
        appendStrings(loaded, n);
      } else {
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
          all[i] = i;
        }
        Col col = ColumnReader.read(loaded, all, n);
        if (longs != null) {
          System.arraycopy(col.longs, 0, longs, rows, n);
        } else {
          System.arraycopy(col.doubles, 0, doubles, rows, n);
        }
        if (col.wide != null) {
          if (wide == null) {
            wide = new BigDecimal[longs.length];
          }
          for (int i = 0; i < n; i++) {
            if (col.wide[i] != null) {
              wide[rows + i] = col.wide[i];
              wideCount++;
            }
          }
        }
      }
      if (loaded.hasNulls) {
        for (int i = 0; i < n; i++) {
          if (vector.isNull(i)) {
            nulls[rows + i] = true;
            anyNull = true;
          }
        }
      }
      rows += n;
    }

    private void appendStrings(LoadedColumn loaded, int n) {
      int[] batchOffsets = new int[n + 1];
      loaded.offsets().asIntBuffer().get(0, batchOffsets);
      int base = batchOffsets[0];
      int length = batchOffsets[n] - base;
      if (dataLength + (long) length > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("a string column of one fragment holds more than 2 GB");
      }
      if (dataLength + length > data.length) {
        data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 16,
            Math.max(2L * data.length, (long) dataLength + length)));
      }
      if (length > 0) {
        loaded.data(1).get(base, data, dataLength, length);
      }
      int longest = maxLength;
      for (int i = 1; i <= n; i++) {
        offsets[rows + i] = dataLength + batchOffsets[i] - base;
        longest = Math.max(longest, batchOffsets[i] - batchOffsets[i - 1]);
      }
      maxLength = longest;
      dataLength += length;
    }

    private void ensure(int needed) {
      int capacity = nulls.length;
      if (needed <= capacity) {
        return;
      }
      int grown = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(2L * capacity, needed));
      nulls = Arrays.copyOf(nulls, grown);
      if (longs != null) {
        longs = Arrays.copyOf(longs, grown);
      }
      if (doubles != null) {
        doubles = Arrays.copyOf(doubles, grown);
      }
      if (wide != null) {
        wide = Arrays.copyOf(wide, grown);
      }
      if (offsets != null) {
        offsets = Arrays.copyOf(offsets, grown + 1);
      }
    }

    CachedColumn build() {
      if (kind == Kind.STRING) {
        int[] codes = new int[rows];
        byte[][] values = dictionary(codes);
        if (values != null) {
          return new CachedColumn(this, values, codes);
        }
      }
      return new CachedColumn(this, null, null);
    }

    /** The distinct values (codes filled in), or null when there are too many for a dictionary to pay. */
    private byte[][] dictionary(int[] codes) {
      return StringDictionary.of(data, offsets, rows, maxLength, codes);
    }
  }
}
