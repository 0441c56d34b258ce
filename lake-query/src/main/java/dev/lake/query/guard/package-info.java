/**
 * What bounds one statement's work: {@link dev.lake.query.guard.QueryGuard}, the flag every phase polls (parse,
 * plan, Calcite's Enumerable rows, the vectorized executor, Lance scans) so a timeout or a cancel stops the work
 * itself; {@link dev.lake.query.guard.HeapCharge}, which charges estimates of the heap operators hold (hash tables,
 * sort buffers, aggregation state, plan-time structures) to the query's allocator, so the per-query and the node-wide
 * memory limits bound them like Arrow buffers; and the row runtime's checkpoints and linear-time LIKE that Calcite's
 * generated code calls ({@link dev.lake.query.guard.RowCheckpoints}, {@link dev.lake.query.guard.LikeFunctions}).
 * docs/architecture.md ("Bounded work") describes where each is polled.
 */
package dev.lake.query.guard;
