package dev.lake.query.exec;

import dev.lake.query.guard.QueryGuard;
import dev.lake.query.vector.VectorResult;
import java.util.function.Supplier;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Streams the result of a statement the vectorized executor runs whole: the executor runs when the first batch is
 * asked for, then its result columns are written straight into the result batches ({@link VectorResult#fill}), up to
 * the batch size or {@link RowBatches#MAX_BATCH_BYTES} a batch, with no row objects in between.
 */
final class VectorBatches implements BatchSource {
  private final Supplier<VectorResult> run;
  private final int batchSize;
  private final QueryGuard guard;
  private VectorResult result;
  private int next;

  VectorBatches(Supplier<VectorResult> run, int batchSize, QueryGuard guard) {
    this.run = run;
    this.batchSize = batchSize;
    this.guard = guard;
  }

  @Override
  public boolean fill(VectorSchemaRoot out) {
    guard.check();
    if (result == null) {
      result = run.get();
      guard.check();
    }
    int written = result.fill(out, next, batchSize, RowBatches.MAX_BATCH_BYTES,
        vector -> ValueWriters.forVector(vector)::write);
    next += written;
    return written > 0;
  }

  @Override
  public void close() {
    result = null;
  }
}
