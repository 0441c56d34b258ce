package dev.lake.query.exec;

import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Streams Lance's batches of one scan as the result: each stored column's buffers move into the result vector of
 * the same position (renamed to the statement's column name), so values, units and zones arrive as stored. Empty
 * batches are skipped.
 */
final class PassThroughBatches implements BatchSource {
  private final ArrowReader lance;
  private final QueryResources resources;

  PassThroughBatches(ArrowReader lance, QueryResources resources) {
    this.lance = lance;
    this.resources = resources;
  }

  @Override
  public boolean fill(VectorSchemaRoot out) throws Exception {
    resources.guard().check();
    while (lance.loadNextBatch()) {
      resources.guard().check();
      VectorSchemaRoot batch = lance.getVectorSchemaRoot();
      int rows = batch.getRowCount();
      if (rows == 0) {
        continue;
      }
      List<FieldVector> sources = batch.getFieldVectors();
      List<FieldVector> targets = out.getFieldVectors();
      if (sources.size() != targets.size()) {
        throw new IllegalStateException("Lance returned " + sources.size() + " columns for a scan of "
            + targets.size());
      }
      for (int i = 0; i < targets.size(); i++) {
        VectorCopy.copy(sources.get(i), targets.get(i), rows);
      }
      out.setRowCount(rows);
      return true;
    }
    out.setRowCount(0);
    return false;
  }

  @Override
  public void close() {
    resources.release(lance);
  }
}
