package dev.lake.query.exec;

import org.apache.arrow.vector.VectorSchemaRoot;

/** Produces a statement's result batches one at a time into the result root. */
interface BatchSource extends AutoCloseable {
  /**
   * Fills {@code out} with the next batch (at least one row).
   *
   * @return false when there are no more rows ({@code out} is then left empty)
   */
  boolean fill(VectorSchemaRoot out) throws Exception;

  @Override
  void close();
}
