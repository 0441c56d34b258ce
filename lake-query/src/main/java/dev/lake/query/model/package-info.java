/**
 * The values and errors every package of the read path shares with lake-query's callers: table references and the
 * pins that resolve them, the typed exceptions of a statement (refused, data errors, inexact results, execution
 * failures) and the push-down counters. It imports no other package of lake-query, so the root package
 * ({@code QueryService}, the catalog) and the sub-packages can all use it without a package cycle.
 */
package dev.lake.query.model;
