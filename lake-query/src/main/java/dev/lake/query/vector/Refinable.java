package dev.lake.query.vector;

/** A condition that can narrow a selection vector in place, in one loop, without materializing a BOOL column. */
interface Refinable {
  /**
   * Keeps, of the batch's rows at {@code positions[0..count)}, those where the condition is true; their number, or
   * -1 (positions untouched) when this batch's columns do not allow it (the caller evaluates it otherwise).
   */
  int refine(Batch batch, int[] positions, int count);

  /**
   * {@link #refine} of every row of the batch: {@code positions} (at least the batch's size) need not hold anything
   * yet — the kept row positions are written into it; -1 (nothing written) when {@link #refine} would say so.
   */
  int refineAll(Batch batch, int[] positions);

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
