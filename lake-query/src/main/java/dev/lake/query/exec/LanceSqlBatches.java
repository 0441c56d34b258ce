package dev.lake.query.exec;

import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Streams the batches of a whole statement run by Lance's SQL engine as the result: each column moves into the result
 * vector of the same position — buffers transferred when the Arrow types are equal, converted exactly otherwise
 * ({@link VectorCopy}); a batch larger than the configured batch size goes out in slices. If Lance rejects the
 * statement before its first batch, the fallback (Calcite running the statement) produces the batches instead. Empty
 * batches are skipped.
 */
final class LanceSqlBatches implements BatchSource {
  private final String sql;
  private final Supplier<ArrowReader> opener;
  private final Supplier<BatchSource> fallback;
  private final QueryResources resources;
  private final PushdownCounters counters;
  private final int batchSize;
  private ArrowReader lance;
  private int offset;
  private int batchRows;
  private BatchSource fallbackBatches;
  private boolean answered;

  LanceSqlBatches(String sql, Supplier<ArrowReader> opener, Supplier<BatchSource> fallback, QueryResources resources,
      PushdownCounters counters, int batchSize) {
    this.batchSize = batchSize;
    this.sql = sql;
    this.opener = opener;
    this.fallback = fallback;
    this.resources = resources;
    this.counters = counters;
  }

  @Override
  public boolean fill(VectorSchemaRoot out) throws Exception {
    if (fallbackBatches != null) {
      return fallbackBatches.fill(out);
    }
    if (answered) {
      return next(out);
    }
    // Until Lance's first batch is converted, a rejection (planning, execution or an answer lake cannot read) means
    // Calcite runs the statement instead.
    try {
      lance = opener.get();
      boolean more = next(out);
      answered = true;
      counters.ran(true);
      return more;
    } catch (RuntimeException e) {
      release();
      if (resources.isClosed() || !LanceSqlFailures.fallsBack(e)) {
        throw e;
      }
      LanceSqlFailures.logFallback(sql, e, counters);
      out.setRowCount(0);
      fallbackBatches = fallback.get();
      return fallbackBatches.fill(out);
    }
  }

  /** The next slice of at most {@code batchSize} rows of Lance's current batch, loading batches as needed. */
  private boolean next(VectorSchemaRoot out) throws java.io.IOException {
    List<FieldVector> targets = out.getFieldVectors();
    while (offset >= batchRows) {
      resources.guard().check();
      if (!lance.loadNextBatch()) {
        out.setRowCount(0);
        return false;
      }
      VectorSchemaRoot batch = lance.getVectorSchemaRoot();
      if (batch.getFieldVectors().size() != targets.size()) {
        throw new IllegalStateException("Lance's SQL engine returned " + batch.getFieldVectors().size()
            + " columns for a statement of " + targets.size());
      }
      batchRows = batch.getRowCount();
      offset = 0;
    }
    List<FieldVector> sources = lance.getVectorSchemaRoot().getFieldVectors();
    int rows = Math.min(batchSize, batchRows - offset);
    for (int i = 0; i < targets.size(); i++) {
      FieldVector source = sources.get(i);
      if (offset == 0 && rows == batchRows) {
        VectorCopy.copy(source, targets.get(i), rows);
      } else {
        TransferPair slice = source.getTransferPair(resources.allocator());
        slice.splitAndTransfer(offset, rows);
        try (FieldVector sliced = (FieldVector) slice.getTo()) {
          VectorCopy.copy(sliced, targets.get(i), rows);
        }
      }
    }
    offset += rows;
    out.setRowCount(rows);
    return true;
  }

  @Override
  public void close() {
    release();
    if (fallbackBatches != null) {
      fallbackBatches.close();
    }
  }

  private void release() {
    if (lance != null) {
      ArrowReader open = lance;
      lance = null;
      resources.release(open);
    }
  }
}
