package dev.lake.it.tpch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One table's batches held in memory, replayed as often as needed without copying (every reader shares the same
 * buffers), so several consumers — lake's Flight ingest, a direct Lance write, DuckDB — read exactly the same batches.
 */
final class RecordedBatches implements AutoCloseable {
  private final Schema schema;
  private final List<ArrowRecordBatch> batches;
  private final long rows;

  private RecordedBatches(Schema schema, List<ArrowRecordBatch> batches, long rows) {
    this.schema = schema;
    this.batches = batches;
    this.rows = rows;
  }

  /** Reads every batch of {@code source} (then closes it). */
  static RecordedBatches record(ArrowReader source) throws IOException {
    List<ArrowRecordBatch> batches = new ArrayList<>();
    long rows = 0;
    try (source) {
      Schema schema = source.getVectorSchemaRoot().getSchema();
      while (source.loadNextBatch()) {
        VectorSchemaRoot root = source.getVectorSchemaRoot();
        rows += root.getRowCount();
        batches.add(new VectorUnloader(root).getRecordBatch());
      }
      return new RecordedBatches(schema, batches, rows);
    }
  }

  long rows() {
    return rows;
  }

  Schema schema() {
    return schema;
  }

  /** A reader over the batches; closing it leaves them intact. */
  ArrowReader reader(BufferAllocator allocator) {
    return new ArrowReader(allocator) {
      private int next;

      @Override
      public boolean loadNextBatch() throws IOException {
        if (next >= batches.size()) {
          return false;
        }
        new VectorLoader(getVectorSchemaRoot()).load(batches.get(next++));
        return true;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {}

      @Override
      protected Schema readSchema() {
        return schema;
      }
    };
  }

  @Override
  public void close() {
    batches.forEach(ArrowRecordBatch::close);
    batches.clear();
  }
}
