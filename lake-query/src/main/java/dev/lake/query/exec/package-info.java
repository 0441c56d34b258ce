/**
 * Execution: opening pinned snapshots, Lance scans for Calcite's row runtime, pass-through of Lance batches, rows
 * written into Arrow batches, the result stream and the per-statement resources it closes.
 */
package dev.lake.query.exec;
