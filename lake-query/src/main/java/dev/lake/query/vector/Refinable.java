package dev.lake.query.vector;

/** A condition that can narrow a selection vector in place, in one loop, without materializing a BOOL column. */
interface Refinable {
  /**
   * Keeps, of the batch's rows at {@code positions[0..count)}, those where the condition is true, in place; their
   * number, or -1 (positions untouched) when this batch's columns do not allow it (the caller evaluates it otherwise).
   * With {@code identity}, position j is row j and {@code positions} is only written (the first refinement of a
   * batch: no pass to fill it).
   */
  int refine(Batch batch, int[] positions, int count, boolean identity);

  /** {@link #refine(Batch, int[], int, boolean)} of the selected positions. */
  default int refine(Batch batch, int[] positions, int count) {
    return refine(batch, positions, count, false);
  }

  /** {@link #refine(Batch, int[], int, boolean)} of every row of the batch, written into {@code positions}. */
  default int refineAll(Batch batch, int[] positions) {
    return refine(batch, positions, batch.size(), true);
  }

  /**
   * {@link Expr#trueRows} by {@link #refineAll}, or from {@code condition}'s BOOL column when refining does not
   * apply.
   */
  static int[] trueRows(Refinable refinable, Expr condition, Batch batch, int[] count) {
    int[] positions = new int[batch.size()];
    int kept = refinable.refineAll(batch, positions);
    if (kept < 0) {
      return Logic.trueRows(condition.eval(batch), count);
    }
    count[0] = kept;
    return positions;
  }

  /** Drops the positions {@code positions[0..kept)} whose row is NULL ({@code nulls[base + position]}); the rest. */
  static int dropNulls(boolean[] nulls, int base, int[] positions, int kept) {
    if (nulls == null) {
      return kept;
    }
    int nonNull = 0;
    for (int k = 0; k < kept; k++) {
      if (!nulls[base + positions[k]]) {
        positions[nonNull++] = positions[k];
      }
    }
    return nonNull;
  }
}
