package dev.lake.it.support;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/** Several batches (of one schema) as one {@link ArrowReader}, for multi-batch ingests. */
public final class ArrowStreams {
  private ArrowStreams() {}

  public static ArrowReader of(BufferAllocator allocator, VectorSchemaRoot... batches) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (VectorSchemaRoot staging = VectorSchemaRoot.create(batches[0].getSchema(), allocator);
        ArrowStreamWriter writer = new ArrowStreamWriter(staging, null, out)) {
      writer.start();
      for (VectorSchemaRoot batch : batches) {
        try (ArrowRecordBatch unloaded = new VectorUnloader(batch).getRecordBatch()) {
          new VectorLoader(staging).load(unloaded);
        }
        writer.writeBatch();
      }
      writer.end();
    }
    return new ArrowStreamReader(new ByteArrayInputStream(out.toByteArray()), allocator);
  }
}
