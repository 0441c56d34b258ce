package dev.lake.query.vector;

/**
 * The output of an outer join probe ({@link OuterProbe}): probe rows beside build rows gathered from the
 * {@link JoinTable} when an operator reads them, where build row -1 stands for a NULL build row and a missing probe
 * batch for NULL probe columns (the build rows no probe row matched).
 */
final class NullExtendedBatch implements Batch {
  private final Batch probe;
  private final Col[] probeShapes;
  private final JoinTable table;
  private final int[] buildRows;
  private final int size;
  private final boolean probeLeft;
  private final int probeWidth;
  private final Col[] gathered;

  /**
   * @param probe the probe rows, one per output row; null: every probe column NULL, of {@code probeShapes}
   * @param buildRows per output row its build row, -1 for NULL
   */
  NullExtendedBatch(Batch probe, Col[] probeShapes, JoinTable table, int[] buildRows, int size, JoinSpec spec) {
    this(probe, probeShapes, table, buildRows, size, spec.probeLeft(), spec.probeWidth());
  }

  private NullExtendedBatch(Batch probe, Col[] probeShapes, JoinTable table, int[] buildRows, int size,
      boolean probeLeft, int probeWidth) {
    this.probe = probe;
    this.probeShapes = probeShapes;
    this.table = table;
    this.buildRows = buildRows;
    this.size = size;
    this.probeLeft = probeLeft;
    this.probeWidth = probeWidth;
    this.gathered = new Col[table.columnCount()];
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public Col column(int index) {
    int build = probeLeft ? index - probeWidth : index;
    if (build < 0 || build >= gathered.length) {
      int at = probeLeft ? index : index - gathered.length;
      return probe != null ? probe.column(at) : nulls(probeShapes[at], size);
    }
    Col col = gathered[build];
    if (col == null) {
      col = gather(table.column(build), buildRows, size);
      gathered[build] = col;
    }
    return col;
  }

  @Override
  public Batch select(int[] positions, int count) {
    int[] rows = new int[count];
    for (int i = 0; i < count; i++) {
      rows[i] = buildRows[positions[i]];
    }
    NullExtendedBatch out = new NullExtendedBatch(probe == null ? null : probe.select(positions, count),
        probeShapes, table, rows, count, probeLeft, probeWidth);
    for (int c = 0; c < gathered.length; c++) {
      if (gathered[c] != null) {
        out.gathered[c] = gathered[c].select(positions, count);
      }
    }
    return out;
  }

  /** Rows {@code rows[0..count)} of {@code col}, NULL where the row is -1. */
  static Col gather(Col col, int[] rows, int count) {
    boolean anyNull = false;
    for (int i = 0; i < count && !anyNull; i++) {
      anyNull = rows[i] < 0;
    }
    if (!anyNull) {
      return col.select(rows, count);
    }
    if (col.size == 0) {
      return nulls(col, count);
    }
    int[] safe = new int[count];
    for (int i = 0; i < count; i++) {
      safe[i] = Math.max(0, rows[i]);
    }
    Col out = col.select(safe, count);
    if (out.nulls == null) {
      out.nulls = new boolean[count];
    }
    for (int i = 0; i < count; i++) {
      if (rows[i] < 0) {
        out.nulls[i] = true;
        if (out.wide != null) {
          out.wide[i] = null;
        }
      }
    }
    return out;
  }

  /** A column of {@code count} NULLs of {@code shape}'s kind and scale (its value arrays zeroed). */
  static Col nulls(Col shape, int count) {
    Col out = new Col(shape.kind, count, shape.scale);
    switch (shape.kind) {
      case DOUBLE:
        out.doubles = new double[count];
        break;
      case STRING:
        byte[][] empty = new byte[count][];
        java.util.Arrays.fill(empty, new byte[0]);
        out.strings = StringSource.of(empty);
        break;
      default:
        out.longs = new long[count];
    }
    out.nulls = new boolean[count];
    java.util.Arrays.fill(out.nulls, true);
    return out;
  }
}
