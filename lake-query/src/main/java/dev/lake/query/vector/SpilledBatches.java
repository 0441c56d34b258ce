package dev.lake.query.vector;

import dev.lake.query.spill.SpillFile;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Batches in a {@link SpillFile}, exact: each column as its kind, scale and arrays (longs, doubles, NULL flags, the
 * per-row decimals beyond a long as unscaled bytes and scale, strings as length-prefixed bytes), so a batch read back
 * holds the values it was written with. A file is a sequence of batches; the writer appends, the reader iterates.
 */
final class SpilledBatches {
  private static final int LONGS = 1;
  private static final int DOUBLES = 2;
  private static final int NULLS = 4;
  private static final int WIDE = 8;
  private static final int STRINGS = 16;

  private SpilledBatches() {}

  /** Appends the first {@code width} columns of {@code batch} to the file. */
  static void write(SpillFile file, Batch batch, int width) {
    DataOutputStream out = file.output();
    int n = batch.size();
    try {
      out.writeInt(n);
      out.writeInt(width);
      for (int c = 0; c < width; c++) {
        writeColumn(out, batch.column(c), n);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing a spill file failed: " + e.getMessage(), e);
    }
  }

  private static void writeColumn(DataOutputStream out, Col col, int n) throws IOException {
    int flags = (col.longs != null ? LONGS : 0) | (col.doubles != null ? DOUBLES : 0)
        | (col.nulls != null ? NULLS : 0) | (col.wide != null ? WIDE : 0) | (col.strings != null ? STRINGS : 0);
    out.writeByte(col.kind.ordinal());
    out.writeInt(col.scale);
    out.writeByte(flags);
    if (col.longs != null) {
      for (int i = 0; i < n; i++) {
        out.writeLong(col.longs[i]);
      }
    }
    if (col.doubles != null) {
      for (int i = 0; i < n; i++) {
        out.writeDouble(col.doubles[i]);
      }
    }
    if (col.nulls != null) {
      for (int i = 0; i < n; i++) {
        out.writeBoolean(col.nulls[i]);
      }
    }
    if (col.wide != null) {
      for (int i = 0; i < n; i++) {
        BigDecimal value = col.wide[i];
        if (value == null) {
          out.writeInt(-1);
        } else {
          byte[] unscaled = value.unscaledValue().toByteArray();
          out.writeInt(unscaled.length);
          out.write(unscaled);
          out.writeInt(value.scale());
        }
      }
    }
    if (col.strings != null) {
      for (int i = 0; i < n; i++) {
        byte[] bytes = col.isNull(i) ? null : col.strings.bytes(i);
        if (bytes == null) {
          out.writeInt(-1);
        } else {
          out.writeInt(bytes.length);
          out.write(bytes);
        }
      }
    }
  }

  /** The batches of a finished file, in the order written; the stream closes at the end (or on {@link Reader#close}). */
  static Reader read(SpillFile file) {
    return new Reader(file.input());
  }

  /** Iterates a file's batches. */
  static final class Reader implements Iterator<Batch>, AutoCloseable {
    private final DataInputStream in;
    private Batch next;
    private boolean done;

    private Reader(DataInputStream in) {
      this.in = in;
    }

    @Override
    public boolean hasNext() {
      if (next == null && !done) {
        next = readBatch();
        if (next == null) {
          done = true;
          close();
        }
      }
      return next != null;
    }

    @Override
    public Batch next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Batch out = next;
      next = null;
      return out;
    }

    private Batch readBatch() {
      try {
        int n;
        try {
          n = in.readInt();
        } catch (EOFException end) {
          return null;
        }
        int width = in.readInt();
        Col[] columns = new Col[width];
        for (int c = 0; c < width; c++) {
          columns[c] = readColumn(in, n);
        }
        return Batch.of(columns, n);
      } catch (IOException e) {
        throw new UncheckedIOException("reading a spill file failed: " + e.getMessage(), e);
      }
    }

    @Override
    public void close() {
      try {
        in.close();
      } catch (IOException ignored) {
        // read to its end or abandoned
      }
    }
  }

  private static Col readColumn(DataInputStream in, int n) throws IOException {
    Kind kind = Kind.values()[in.readByte()];
    int scale = in.readInt();
    int flags = in.readByte();
    Col col = new Col(kind, n, scale);
    if ((flags & LONGS) != 0) {
      col.longs = new long[n];
      for (int i = 0; i < n; i++) {
        col.longs[i] = in.readLong();
      }
    }
    if ((flags & DOUBLES) != 0) {
      col.doubles = new double[n];
      for (int i = 0; i < n; i++) {
        col.doubles[i] = in.readDouble();
      }
    }
    if ((flags & NULLS) != 0) {
      col.nulls = new boolean[n];
      for (int i = 0; i < n; i++) {
        col.nulls[i] = in.readBoolean();
      }
    }
    if ((flags & WIDE) != 0) {
      col.wide = new BigDecimal[n];
      for (int i = 0; i < n; i++) {
        int length = in.readInt();
        if (length >= 0) {
          byte[] unscaled = in.readNBytes(length);
          col.wide[i] = new BigDecimal(new BigInteger(unscaled), in.readInt());
        }
      }
    }
    if ((flags & STRINGS) != 0) {
      byte[][] values = new byte[n][];
      for (int i = 0; i < n; i++) {
        int length = in.readInt();
        values[i] = length < 0 ? new byte[0] : in.readNBytes(length);
      }
      col.strings = StringSource.of(values);
    }
    return col;
  }
}
