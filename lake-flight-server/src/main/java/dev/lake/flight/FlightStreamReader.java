package dev.lake.flight;

import dev.lake.flight.limits.IdleStreams;
import dev.lake.flight.limits.IngestIdleException;
import dev.lake.metasrv.ReportsFailure;
import java.io.IOException;
import java.util.Optional;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An ingest's DoPut stream as an {@link ArrowReader}: each {@link #loadNextBatch()} pulls one batch from the
 * client (gRPC flow control is the backpressure) and moves its buffers into this reader's root, so nothing is
 * collected. Safe to call from a different thread each time (Lance does). Remembers why the stream failed.
 * Dictionary-encoded columns (pandas categories, Parquet dictionary pages) are decoded to their value type here, so
 * the table stores values ({@link DictionaryColumns}).
 */
final class FlightStreamReader extends ArrowReader implements ReportsFailure {
  private final FlightStream stream;
  private final IdleStreams idle;
  private volatile RuntimeException failure;
  private long rows;
  private volatile long bytes;

  FlightStreamReader(FlightStream stream, BufferAllocator allocator, IdleStreams idle) {
    super(allocator);
    this.stream = stream;
    this.idle = idle;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    try {
      if (!idle.next(stream)) {
        return false;
      }
      VectorSchemaRoot in = stream.getRoot();
      VectorSchemaRoot out = getVectorSchemaRoot();
      long batchBytes = 0;
      for (int i = 0; i < in.getFieldVectors().size(); i++) {
        batchBytes += in.getVector(i).getBufferSize();
        if (in.getVector(i).getField().getDictionary() != null) {
          DictionaryColumns.decodeInto(in.getVector(i), stream.getDictionaryProvider(), out.getVector(i));
        } else {
          in.getVector(i).makeTransferPair(out.getVector(i)).transfer();
        }
      }
      out.setRowCount(in.getRowCount());
      rows += in.getRowCount();
      bytes += batchBytes;
      return true;
    } catch (IngestIdleException e) {
      failure = failure == null ? e : failure;
      throw e;
    } catch (RuntimeException e) {
      RuntimeException cause = new IngestStreamException("the ingest stream failed after " + rows + " rows: "
          + e.getMessage() + "; nothing was committed", e);
      failure = failure == null ? cause : failure;
      throw cause;
    }
  }

  @Override
  public Optional<RuntimeException> failure() {
    return Optional.ofNullable(failure);
  }

  @Override
  public long bytesRead() {
    return bytes;
  }

  @Override
  protected void closeReadSource() {
    // The stream belongs to the Flight call; it is closed when the call ends.
  }

  @Override
  protected Schema readSchema() {
    return DictionaryColumns.decoded(stream.getSchema(), stream.getDictionaryProvider());
  }

  /** The client's stream broke (disconnect, cancel, malformed batch). Maps to CANCELLED-like INVALID_ARGUMENT. */
  static final class IngestStreamException extends IllegalArgumentException {
    IngestStreamException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
