package dev.lake.query.vector;

import java.util.Objects;

/**
 * One inner equi-join on the probe pipeline of a vectorized plan, as planned (no per-execution state): which probe
 * columns are the keys, the shape of the build side's columns and which of them are its keys, and on which side of the
 * join's output the probe columns stand. {@link Op.Probe} runs it once the execution built its {@link JoinTable}.
 *
 * @param slot which of the plan's build sides this join probes (their order in the plan's executable node)
 * @param probeKeys the probe batch's key columns; {@code buildKeys} the build side's, pairwise equal
 * @param buildShapes kind and scale of every build column (the build side's whole row)
 * @param probeLeft whether the probe side is the join's left input (its columns come first in the output)
 * @param probeWidth the number of probe columns
 */
public record JoinSpec(int slot, int[] probeKeys, int[] buildKeys, Col[] buildShapes, boolean probeLeft,
    int probeWidth) {
  /**
   * The most rows a build side may have at run time (its memory is charged to the query's limit too): the hash table
   * addresses rows and key words with ints.
   */
  public static final int MAX_BUILD_ROWS = 50_000_000;

  public JoinSpec {
    Objects.requireNonNull(buildShapes, "buildShapes");
    if (probeKeys.length != buildKeys.length) {
      // No keys at all: every probe row meets every build row (the planner allows it for a one-row build side).
      throw new IllegalArgumentException("an equi-join needs as many probe keys as build keys");
    }
    probeKeys = probeKeys.clone();
    buildKeys = buildKeys.clone();
    buildShapes = buildShapes.clone();
  }

  /** The number of columns after the join: probe and build columns. */
  public int outputWidth() {
    return probeWidth + buildShapes.length;
  }
}
