/**
 * Execution: opening pinned snapshots, Lance scans and Lance SQL statements read as rows for Calcite's runtime (with
 * the fallback to Calcite when Lance rejects a statement), pass-through of Lance batches (scans, and whole statements
 * run by Lance's SQL engine), rows written into Arrow batches, the result stream, the per-statement resources it
 * closes, push-down counters and the distinct-value estimates the join-order heuristics read.
 */
package dev.lake.query.exec;
