package dev.lake.query.vector;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

/** Batch helpers of the spilling operators: key hashes that pick a row's partition, and concatenation. */
final class Batches {
  private static final long[] SEEDS = {0x9E3779B97F4A7C15L, 0xC2B2AE3D27D4EB4FL, 0x165667B19E3779F9L,
      0xD6E8FEB86659FD93L, 0xFF51AFD7ED558CCDL};

  private Batches() {}

  /**
   * A hash of each row's values in {@code columns} of {@code batch}, equal for rows a hash aggregate or join would
   * put in one group (a decimal's trailing zeros, -0.0 and the representation of a string do not matter); {@code level}
   * picks one of several independent hash functions (a partition split again uses the next).
   */
  static long[] hashes(Batch batch, int[] columns, int level) {
    int n = batch.size();
    long[] out = new long[n];
    long seed = SEEDS[level % SEEDS.length];
    Arrays.fill(out, seed);
    for (int column : columns) {
      Col col = batch.column(column);
      for (int i = 0; i < n; i++) {
        out[i] = (out[i] ^ value(col, i)) * 0xC2B2AE3D27D4EB4FL;
        out[i] ^= out[i] >>> 29;
      }
    }
    for (int i = 0; i < n; i++) {
      long h = (out[i] ^ seed) * 0xFF51AFD7ED558CCDL;
      out[i] = h ^ (h >>> 32);
    }
    return out;
  }

  private static long value(Col col, int i) {
    if (col.isNull(i)) {
      return 0x5BD1E995L;
    }
    switch (col.kind) {
      case STRING:
        return Arrays.hashCode(col.strings.bytes(i));
      case DOUBLE:
        double d = col.doubles[i];
        return Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
      default:
        return col.isWide(i) ? col.wide[i].stripTrailingZeros().hashCode() : col.longs[i];
    }
  }

  /** The rows of each partition (of {@code partitions}, a power of two): positions into the batch, and their count. */
  static int[][] partition(long[] hashes, int partitions, int[] counts) {
    int n = hashes.length;
    int mask = partitions - 1;
    for (long h : hashes) {
      counts[(int) (h >>> 40) & mask]++;
    }
    int[][] rows = new int[partitions][];
    for (int p = 0; p < partitions; p++) {
      rows[p] = new int[counts[p]];
    }
    int[] at = new int[partitions];
    for (int i = 0; i < n; i++) {
      int p = (int) (hashes[i] >>> 40) & mask;
      rows[p][at[p]++] = i;
    }
    return rows;
  }

  /** The first {@code width} columns of {@code batch}, as a batch of those columns only. */
  static Batch columns(Batch batch, int[] columns) {
    Col[] out = new Col[columns.length];
    for (int c = 0; c < columns.length; c++) {
      out[c] = batch.column(columns[c]);
    }
    return Batch.of(out, batch.size());
  }

  /**
   * {@code batch}'s first {@code width} columns copied into arrays of its own: what a sink keeps after its call returns
   * (a batch of a Lance scan reads the scan's vectors, which its next batch reloads).
   */
  static Batch owned(Batch batch, int width) {
    Col[] out = new Col[width];
    List<Batch> one = List.of(batch);
    for (int c = 0; c < width; c++) {
      out[c] = concatColumn(one, c, batch.size());
    }
    return Batch.of(out, batch.size());
  }

  /** The rows of {@code batches} one after the other, their first {@code width} columns. */
  static Batch concat(List<Batch> batches, int width) {
    if (batches.size() == 1) {
      return batches.get(0);
    }
    int total = 0;
    for (Batch batch : batches) {
      total += batch.size();
    }
    Col[] out = new Col[width];
    for (int c = 0; c < width; c++) {
      out[c] = concatColumn(batches, c, total);
    }
    return Batch.of(out, total);
  }

  private static Col concatColumn(List<Batch> batches, int c, int total) {
    Col first = null;
    boolean longs = false;
    boolean doubles = false;
    boolean nulls = false;
    boolean wide = false;
    boolean strings = false;
    for (Batch batch : batches) {
      if (batch.size() == 0) {
        continue;
      }
      Col col = batch.column(c);
      first = first == null ? col : first;
      longs |= col.longs != null;
      doubles |= col.doubles != null;
      nulls |= col.nulls != null;
      wide |= col.wide != null;
      strings |= col.strings != null;
    }
    if (first == null) {
      return batches.get(0).column(c);
    }
    Col out = new Col(first.kind, total, first.scale);
    out.longs = longs ? new long[total] : null;
    out.doubles = doubles ? new double[total] : null;
    out.nulls = nulls ? new boolean[total] : null;
    out.wide = wide ? new BigDecimal[total] : null;
    byte[][] bytes = strings ? new byte[total][] : null;
    int at = 0;
    for (Batch batch : batches) {
      int n = batch.size();
      if (n == 0) {
        continue;
      }
      Col col = batch.column(c);
      if (col.longs != null) {
        System.arraycopy(col.longs, 0, out.longs, at, n);
      }
      if (col.doubles != null) {
        System.arraycopy(col.doubles, 0, out.doubles, at, n);
      }
      if (col.nulls != null) {
        System.arraycopy(col.nulls, 0, out.nulls, at, n);
      }
      if (col.wide != null) {
        System.arraycopy(col.wide, 0, out.wide, at, n);
      }
      if (bytes != null) {
        for (int i = 0; i < n; i++) {
          bytes[at + i] = col.strings == null || col.isNull(i) ? new byte[0] : col.strings.bytes(i);
        }
      }
      at += n;
    }
    if (bytes != null) {
      out.strings = StringSource.of(bytes);
    }
    return out;
  }
}
