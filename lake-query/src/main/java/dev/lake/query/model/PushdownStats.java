package dev.lake.query.model;


/**
 * Counters of whole-subtree push-down into Lance's SQL engine since the {@link dev.lake.query.QueryService} was created.
 *
 * @param statements Lance SQL statements that ran (each pushed-down subtree of each execution, including whole
 *     statements)
 * @param wholeStatements of those, executions whose whole statement ran in Lance and streamed Lance's batches
 * @param fallbacks pushed-down subtrees Lance rejected, which Calcite then ran instead (the query still answered)
 * @param vectorized pushed-down subtrees lake's vectorized executor ran instead of Lance's SQL engine
 */
public record PushdownStats(long statements, long wholeStatements, long fallbacks, long vectorized) {
  /** Counts without vectorized subtrees. */
  public PushdownStats(long statements, long wholeStatements, long fallbacks) {
    this(statements, wholeStatements, fallbacks, 0);
  }
}
