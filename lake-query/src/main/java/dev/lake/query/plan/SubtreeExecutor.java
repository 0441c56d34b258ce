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
  LANCE_SQL,
  /**
   * Neither: Calcite's Enumerable runtime computes every operator over Lance scans (projections and filters still
   * pushed into the scans). For comparisons and diagnosis.
   */
  CALCITE;

  /** Parses {@code auto}, {@code vectorized}, {@code lance-sql} or {@code calcite} (case-insensitive). */
  public static SubtreeExecutor parse(String text) {
    switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "auto":
        return AUTO;
      case "vectorized":
        return VECTORIZED;
      case "lance-sql":
        return LANCE_SQL;
      case "calcite":
        return CALCITE;
      default:
        throw new IllegalArgumentException("query.executor must be auto, vectorized, lance-sql or calcite, was '" + text + "'");
    }
  }

  /** The configuration spelling. */
  public String text() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
