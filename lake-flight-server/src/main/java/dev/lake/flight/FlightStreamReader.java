package dev.lake.flight;

import dev.lake.flight.arrow.DictionaryColumns;
import dev.lake.flight.grpc.StatusMapper;
import dev.lake.flight.limits.IdleStreams;
import dev.lake.flight.limits.IngestIdleException;
import dev.lake.flight.streams.BatchValidation;
import dev.lake.flight.streams.StreamWatch;
import dev.lake.metasrv.ReportsFailure;
import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.io.IOException;
import java.util.Optional;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An ingest's DoPut stream as an {@link ArrowReader}: each {@link #loadNextBatch()} pulls one batch from the
 * client (gRPC flow control is the backpressure), validates it ({@link BatchValidation}) and moves its buffers into
 * this reader's root, so nothing is collected. Safe to call from a different thread each time (Lance does).
 * Remembers why the stream failed. Dictionary-encoded columns (pandas categories, Parquet dictionary pages) are
 * decoded to their value type here, so the table stores values ({@link DictionaryColumns}).
 */
final class FlightStreamReader extends ArrowReader implements ReportsFailure {
  private final FlightStream stream;
  private final IdleStreams idle;
  /** The guard's view of the stream (captured here: Lance pulls batches on its own threads). */
  private final StreamWatch watch;
  private volatile RuntimeException failure;
  private long rows;
  private long batches;
  private volatile long bytes;

  FlightStreamReader(FlightStream stream, BufferAllocator allocator, IdleStreams idle) {
    super(allocator);
    this.stream = stream;
    this.idle = idle;
    this.watch = StreamWatch.current().orElse(null);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    try {
      if (!idle.next(stream)) {
        // a stream the guard refused may look ended to Arrow's reader: never take it for a complete one
        if (watch != null && watch.failure().isPresent()) {
          throw watch.failure().get();
        }
        return false;
      }
      VectorSchemaRoot in = stream.getRoot();
      batches++;
      BatchValidation.check(in, batches);
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
          + (e instanceof CodedFailure ? e.getMessage() : "batch " + (batches + 1) + " could not be read ("
              + StatusMapper.withoutTypeNames(String.valueOf(e.getMessage())) + ")") + "; nothing was committed", e);
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

  /**
   * The client's stream broke: a malformed or invalid batch (INVALID_ARGUMENT), or the client cancelled or went
   * away (CANCELLED). Nothing was committed.
   */
  static final class IngestStreamException extends LakeException {
    IngestStreamException(String message, Throwable cause) {
      super(codeOf(cause), message, cause);
    }

    private static ErrorCode codeOf(Throwable cause) {
      if (cause instanceof CodedFailure coded) {
        return coded.errorCode();
      }
      if (cause instanceof org.apache.arrow.flight.FlightRuntimeException f
          && f.status().code() == org.apache.arrow.flight.FlightStatusCode.CANCELLED) {
        return ErrorCode.CANCELLED;
      }
      return ErrorCode.INVALID_ARGUMENT;
    }
  }
}
