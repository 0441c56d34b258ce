package dev.lake.query.plan;

import java.util.Locale;

/**
 * Which engine runs a single-table subtree that does more than a scan ({@code query.executor}): the planner's
 * choice, or one forced for comparisons and diagnosis.
 */
public enum SubtreeExecutor {
  /**
   * The planner's rule: lake's vectorized operators when the subtree aggregates and they support every expression in
   * it (one parallel scan per fragment, no late materialization, aggregation on unscaled longs); Lance's SQL engine
   * otherwise.
   */
  AUTO,
  /** The vectorized operators wherever they support the subtree; Lance's SQL engine for the rest. */
  VECTORIZED,
  /** Always Lance's SQL engine. */
  LANCE_SQL;

  /** Parses {@code auto}, {@code vectorized} or {@code lance-sql} (case-insensitive). */
  public static SubtreeExecutor parse(String text) {
    switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "auto":
        return AUTO;
      case "vectorized":
        return VECTORIZED;
      case "lance-sql":
        return LANCE_SQL;
      default:
        throw new IllegalArgumentException("query.executor must be auto, vectorized or lance-sql, was '" + text + "'");
    }
  }

  /** The configuration spelling. */
  public String text() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
