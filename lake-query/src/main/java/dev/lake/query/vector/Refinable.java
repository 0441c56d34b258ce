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
}
