package dev.lake.query.vector;

/**
 * The output of a join probe: probe rows beside build rows, whose columns are gathered from the {@link JoinTable} only
 * when an operator reads them. An inner probe ({@link #of}) pairs each probe row with the build row it matched; an
 * outer probe ({@link #nullExtended}, for {@link OuterProbe}) may also pair it with build row -1, a NULL build row, or
 * have no probe batch at all: NULL probe columns beside the build rows no probe row matched.
 */
final class JoinedBatch implements Batch {
  private final Batch probe;
  private final Col[] probeShapes;
  private final JoinTable table;
  private final int[] buildRows;
  private final int size;
  private final boolean probeLeft;
  private final int probeWidth;
  /** Whether a build row may be -1 (an outer probe): gathering then marks those rows NULL. */
  private final boolean nullExtended;
  private final Col[] gathered;

  private JoinedBatch(Batch probe, Col[] probeShapes, JoinTable table, int[] buildRows, int size, boolean probeLeft,
      int probeWidth, boolean nullExtended) {
    this.probe = probe;
    this.probeShapes = probeShapes;
    this.table = table;
    this.buildRows = buildRows;
    this.size = size;
    this.probeLeft = probeLeft;
    this.probeWidth = probeWidth;
    this.nullExtended = nullExtended;
    this.gathered = new Col[table.columnCount()];
  }

  /** {@code probe}'s rows, row i joined with build row {@code buildRows[i]}. */
  static JoinedBatch of(Batch probe, JoinTable table, int[] buildRows, int size, JoinSpec spec) {
    return new JoinedBatch(probe, null, table, buildRows, size, spec.probeLeft(), spec.probeWidth(), false);
  }

  /**
   * An outer probe's rows: row i of {@code probe} joined with build row {@code buildRows[i]}, NULL build columns
   * where that is -1; a null {@code probe} stands for NULL probe columns of {@code probeShapes}.
   */
  static JoinedBatch nullExtended(Batch probe, Col[] probeShapes, JoinTable table, int[] buildRows, int size,
      JoinSpec spec) {
    return new JoinedBatch(probe, probeShapes, table, buildRows, size, spec.probeLeft(), spec.probeWidth(), true);
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
      col = nullExtended ? gather(table.column(build), buildRows, size) : table.column(build).select(buildRows, size);
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
    JoinedBatch out = new JoinedBatch(probe == null ? null : probe.select(positions, count), probeShapes, table, rows,
        count, probeLeft, probeWidth, nullExtended);
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
