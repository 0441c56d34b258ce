package dev.lake.query.exec;

import java.io.IOException;
import java.util.function.Function;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream a statement's results are read from. Batches are produced when {@link #loadNextBatch()} is called,
 * into one root whose schema is the statement's result schema. Closing it (also before the end) closes the
 * statement's scans, snapshots and allocator. Failures while producing a batch are translated once, at this
 * boundary, into lake's exception types.
 */
public final class ResultReader extends ArrowReader {
  private static final Logger LOG = LoggerFactory.getLogger(ResultReader.class);

  private final Schema schema;
  private final BatchSource source;
  private final QueryResources resources;
  private final Function<Throwable, RuntimeException> failures;
  private boolean finished;

  ResultReader(Schema schema, BatchSource source, QueryResources resources,
      Function<Throwable, RuntimeException> failures) {
    super(resources.allocator());
    this.schema = schema;
    this.source = source;
    this.resources = resources;
    this.failures = failures;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot root = getVectorSchemaRoot();
    if (finished) {
      root.setRowCount(0);
      return false;
    }
    try {
      boolean more = source.fill(root);
      if (!more) {
        finished = true;
        root.setRowCount(0);
        resources.releaseSpill(); // before the caller completes the call: nothing is left once the client has it all
      }
      return more;
    } catch (Throwable t) {
      finished = true;
      throw failures.apply(t);
    }
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    try {
      source.close();
    } catch (Throwable t) {
      LOG.warn("closing a result source failed error={}", t.toString());
    } finally {
      resources.close();
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
