package dev.lake.query.model;


/**
 * Counters of whole-subtree push-down into Lance's SQL engine since the {@link dev.lake.query.QueryService} was created.
 *
 * @param statements Lance SQL statements that ran (each pushed-down subtree of each execution, including whole
 *     statements)
 * @param wholeStatements of those, executions whose whole statement ran in Lance and streamed Lance's batches
 * @param fallbacks pushed-down subtrees Lance rejected, which Calcite then ran instead (the query still answered)
 * @param vectorized pushed-down subtrees lake's vectorized executor ran instead of Lance's SQL engine
 * @param cachedScans executions of statements that are one pass-through scan whose rows came from the vectorized
 *     executor's column cache instead of a Lance scan
 */
public record PushdownStats(long statements, long wholeStatements, long fallbacks, long vectorized,
    long cachedScans) {
  /** Counts without pass-through scans served from the column cache. */
  public PushdownStats(long statements, long wholeStatements, long fallbacks, long vectorized) {
    this(statements, wholeStatements, fallbacks, vectorized, 0);
  }

  /** Counts without vectorized subtrees. */
  public PushdownStats(long statements, long wholeStatements, long fallbacks) {
    this(statements, wholeStatements, fallbacks, 0);
  }
}
