package dev.lake.query.spill;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how much operators may spill.
 *
 * @param dir the local directory each execution's spill directory goes under ({@code query.spill-dir})
 * @param queryLimit the most bytes one execution may hold on spill disk ({@code query.spill-limit}; 0 turns spilling
 *     off: an operator past the memory limit fails)
 * @param nodeLimit the most bytes all executions of the node may hold there at once ({@code query.node-spill-limit})
 */
public record SpillOptions(Path dir, long queryLimit, long nodeLimit) {
  public static final long DEFAULT_QUERY_LIMIT = 10L << 30;
  public static final long DEFAULT_NODE_LIMIT = 40L << 30;

  public SpillOptions {
    Objects.requireNonNull(dir, "dir");
    if (queryLimit < 0 || nodeLimit < 0) {
      throw new IllegalArgumentException("query.spill-limit and query.node-spill-limit must be >= 0, were "
          + queryLimit + " and " + nodeLimit);
    }
  }

  /** The default budgets under {@code java.io.tmpdir}/lake-spill (a server puts it under its data directory). */
  public static SpillOptions defaults() {
    return new SpillOptions(Path.of(System.getProperty("java.io.tmpdir"), "lake-spill"), DEFAULT_QUERY_LIMIT,
        DEFAULT_NODE_LIMIT);
  }
}
