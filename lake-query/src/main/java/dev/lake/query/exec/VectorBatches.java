package dev.lake.query.exec;

import dev.lake.query.guard.QueryGuard;
import dev.lake.query.vector.VectorResult;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Streams results the vectorized executor computes — a statement it runs whole, or a pass-through scan served from
 * its column cache — chunk by chunk: the chunks are asked for when the first batch is, then each chunk's columns are
 * written straight into the result batches ({@link VectorResult#fill}), up to the batch size or
 * {@link RowBatches#MAX_BATCH_BYTES} a batch, with no row objects in between.
 */
final class VectorBatches implements BatchSource {
  private final Supplier<Iterator<VectorResult>> run;
  private final int batchSize;
  private final QueryGuard guard;
  private Iterator<VectorResult> chunks;
  private VectorResult chunk;
  private int next;

  private VectorBatches(Supplier<Iterator<VectorResult>> run, int batchSize, QueryGuard guard) {
    this.run = run;
    this.batchSize = batchSize;
    this.guard = guard;
  }

  /** The batches of one result, computed when the first batch is asked for. */
  static VectorBatches of(Supplier<VectorResult> run, int batchSize, QueryGuard guard) {
    return new VectorBatches(() -> List.of(run.get()).iterator(), batchSize, guard);
  }

  /** The batches of the chunks {@code chunks} hands on, in order. */
  static VectorBatches chunked(Iterator<VectorResult> chunks, int batchSize, QueryGuard guard) {
    return new VectorBatches(() -> chunks, batchSize, guard);
  }

  @Override
  public boolean fill(VectorSchemaRoot out) {
    guard.check();
    if (chunks == null) {
      chunks = run.get();
      guard.check();
    }
    while (chunk == null || next >= chunk.rowCount()) {
      if (!chunks.hasNext()) {
        out.setRowCount(0);
        return false;
      }
      chunk = chunks.next();
      next = 0;
      guard.check();
    }
    int written = chunk.fill(out, next, batchSize, RowBatches.MAX_BATCH_BYTES,
        vector -> ValueWriters.forVector(vector)::write);
    next += written;
    return written > 0;
  }

  @Override
  public void close() {
    chunks = null;
    chunk = null;
  }
}
