package dev.lake.query.vector;

/**
 * A batch's rows grouped by group id (a counting sort), when the batch touches few groups: an accumulator then adds
 * each group's values in a local variable and stores once, instead of a load-add-store per row that stalls on the
 * previous row's store to the same few slots (Q1's four groups, Q6's one).
 */
final class GroupRuns {
  /** Batches touching more distinct groups than this are added row by row. */
  private static final int MAX_GROUPS = 64;
  /** Aggregates of more groups than this add row by row (the scratch slots per group id would not pay). */
  static final int MAX_TABLE_GROUPS = 4_096;

  /** The distinct group ids of the batch, in first-seen order. */
  final int[] groups;
  final int count;
  /** Run r is rows {@code order[starts[r]..starts[r+1])}. */
  final int[] starts;
  /** Row positions by run; null when the batch is one run in row order. */
  final int[] order;

  private GroupRuns(int[] groups, int count, int[] starts, int[] order) {
    this.groups = groups;
    this.count = count;
    this.starts = starts;
    this.order = order;
  }

  /**
   * The runs of {@code groupIds[0..n)}, or null when they touch too many groups to pay. {@code scratch} has a slot
   * per group id, all -1, and is left so.
   */
  static GroupRuns of(int[] groupIds, int n, int[] scratch) {
    if (n == 0) {
      return null;
    }
    int first = groupIds[0];
    boolean single = true;
    for (int i = 1; i < n && single; i++) {
      single = groupIds[i] == first;
    }
    if (single) {
      return new GroupRuns(new int[] {first}, 1, new int[] {0, n}, null);
    }
    int[] groups = new int[MAX_GROUPS];
    int[] sizes = new int[MAX_GROUPS];
    int[] runOf = new int[n];
    int count = 0;
    try {
      for (int i = 0; i < n; i++) {
        int g = groupIds[i];
        int run = scratch[g];
        if (run < 0) {
          if (count == MAX_GROUPS) {
            return null;
          }
          run = count++;
          groups[run] = g;
          scratch[g] = run;
        }
        runOf[i] = run;
        sizes[run]++;
      }
    } finally {
      for (int r = 0; r < count; r++) {
        scratch[groups[r]] = -1;
      }
    }
    int[] starts = new int[count + 1];
    for (int r = 0; r < count; r++) {
      starts[r + 1] = starts[r] + sizes[r];
    }
    int[] next = java.util.Arrays.copyOf(starts, count);
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[next[runOf[i]]++] = i;
    }
    return new GroupRuns(groups, count, starts, order);
  }

  /** The row at position p of the runs. */
  int row(int p) {
    return order == null ? p : order[p];
  }
}
