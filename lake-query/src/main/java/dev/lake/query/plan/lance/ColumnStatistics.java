package dev.lake.query.plan.lance;

import java.util.List;
import java.util.OptionalDouble;

/**
 * Statistics of the stored columns of one pinned table version, for the join-order heuristics. A version never
 * changes, so an estimate, once made, holds for every statement reading that version.
 */
@FunctionalInterface
public interface ColumnStatistics {
  /** Nothing known: Calcite's default guesses apply. */
  ColumnStatistics UNKNOWN = columns -> OptionalDouble.empty();

  /**
   * The estimated number of distinct combinations of values of the stored columns {@code columns} (one or more), or
   * empty when unknown. Asked about a set of columns as a whole, not column by column: join keys are often
   * correlated (TPC-H partsupp's (partkey, suppkey) has far fewer combinations than the product of their counts).
   */
  OptionalDouble distinctValues(List<String> columns);
}
