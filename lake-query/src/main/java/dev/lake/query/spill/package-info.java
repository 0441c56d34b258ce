/**
 * Local disk for operators whose state outgrows the query's memory limit: {@link dev.lake.query.spill.SpillSpace} is
 * one execution's spill directory (created on first use, deleted with everything in it when the execution closes),
 * bounded by the query's spill budget ({@code query.spill-limit}) and the node's ({@code query.node-spill-limit},
 * {@link dev.lake.query.spill.NodeSpill}); {@link dev.lake.query.spill.SpillFile} is one file of it, written once and
 * then read back. The operators' formats live with the operators (the vectorized executor's batches:
 * {@code dev.lake.query.vector.SpilledBatches}). docs/architecture.md ("Spilling") describes who spills what.
 */
package dev.lake.query.spill;
