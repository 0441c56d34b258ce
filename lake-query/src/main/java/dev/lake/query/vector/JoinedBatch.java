package dev.lake.query.vector;

/**
 * The output of a join probe: the probe batch's matching rows (one per match) beside the matched build rows' columns,
 * which are gathered from the {@link JoinTable} only when an operator reads them.
 */
final class JoinedBatch implements Batch {
  private final Batch probe;
  private final JoinTable table;
  private final int[] buildRows;
  private final int size;
  private final boolean probeLeft;
  private final int probeWidth;
  private final Col[] gathered;

  private JoinedBatch(Batch probe, JoinTable table, int[] buildRows, int size, boolean probeLeft, int probeWidth) {
    this.probe = probe;
    this.table = table;
    this.buildRows = buildRows;
    this.size = size;
    this.probeLeft = probeLeft;
    this.probeWidth = probeWidth;
    this.gathered = new Col[table.columnCount()];
  }

  /** {@code probe}'s rows, row i joined with build row {@code buildRows[i]}. */
  static JoinedBatch of(Batch probe, JoinTable table, int[] buildRows, int size, JoinSpec spec) {
    return new JoinedBatch(probe, table, buildRows, size, spec.probeLeft(), spec.probeWidth());
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public Col column(int index) {
    int build = probeLeft ? index - probeWidth : index;
    if (build < 0 || build >= gathered.length) {
      return probe.column(probeLeft ? index : index - gathered.length);
    }
    Col col = gathered[build];
    if (col == null) {
      col = table.column(build).select(buildRows, size);
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
    JoinedBatch out = new JoinedBatch(probe.select(positions, count), table, rows, count, probeLeft, probeWidth);
    for (int c = 0; c < gathered.length; c++) {
      if (gathered[c] != null) {
        out.gathered[c] = gathered[c].select(positions, count);
      }
    }
    return out;
  }
}
