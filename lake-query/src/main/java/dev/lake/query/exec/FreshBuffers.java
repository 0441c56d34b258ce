package dev.lake.query.exec;

/**
 * What a statement's result stream promises about its buffers, so the transport may send them without copying
 * (docs/performance.md, "SELECT * through Flight"): when {@link #freshPerBatch()} holds, every batch's buffers are
 * ones no earlier batch used and nothing writes into them once the batch is handed on — the next batch replaces them,
 * it never overwrites them. Pass-through scans keep this promise (Lance's buffers are moved, or copied into newly
 * allocated ones); results built into reused vectors do not.
 */
public interface FreshBuffers {
  /** Whether every batch comes in buffers of its own that stay unchanged after it was produced. */
  boolean freshPerBatch();
}
