/**
 * Statistics: lake's metadata providers for Calcite — join row counts and the distinct values of pushed-down
 * subtrees — over the column statistics of the pinned versions ({@code plan.lance.ColumnStatistics}).
 *
 * <p>Rule: imports {@code plan.lance} only.
 */
package dev.lake.query.plan.stats;
