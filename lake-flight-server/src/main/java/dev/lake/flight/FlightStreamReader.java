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
import java.io.InterruptedIOException;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An ingest's DoPut stream as an {@link ArrowReader}: each batch is pulled from the client (gRPC flow control is the
 * backpressure), validated ({@link BatchValidation}) and its buffers moved, so nothing is copied here. Remembers why
 * the stream failed. Dictionary-encoded columns (pandas categories, Parquet dictionary pages) are decoded to their
 * value type here, so the table stores values ({@link DictionaryColumns}).
 *
 * <p>Reads one batch ahead. Lance pulls a stream one batch at a time and encodes each before it asks for the next, so
 * the wait for the client's next message and its validation would otherwise add to Lance's time batch by batch
 * (docs/performance.md, "Bulk ingest"). A thread of its own (started by the first {@link #loadNextBatch()}, ended by
 * the end of the stream, a failure or {@link #close()}) reads the batches and hands each over through a one-slot
 * queue: besides the batch Lance holds, at most two are held here (one handed over, one being read), in this
 * reader's allocator. A failure is handed over in its place, after the batches before it. Closing stops the thread
 * (interrupting its wait for the client) and waits for it; a failure caused by that stop is not remembered as the
 * stream's. {@link #loadNextBatch()} may be called from a different thread each time (Lance does), one at a time.
 */
final class FlightStreamReader extends ArrowReader implements ReportsFailure {
  /** Handed over in place of a batch when the stream has ended. */
  private static final Object END = new Object();
  private static final AtomicLong THREADS = new AtomicLong();

  private final FlightStream stream;
  private final IdleStreams idle;
  /** The guard's view of the stream (captured here: the batches are read on another thread). */
  private final StreamWatch watch;
  /** A batch's {@link VectorSchemaRoot}, {@link #END}, or the {@link Throwable} that ended the stream. */
  private final BlockingQueue<Object> ready = new ArrayBlockingQueue<>(1);
  private final Object lifecycle = new Object();
  private Thread reading; // guarded by lifecycle
  private volatile boolean closing;
  private boolean ended; // the consumer's: END or a failure was taken
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
    if (ended) {
      return false;
    }
    startReading();
    Object next;
    try {
      next = ready.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the ingest stream's next batch");
    }
    if (next == END) {
      ended = true;
      return false;
    }
    if (next instanceof Throwable t) {
      ended = true;
      if (t instanceof RuntimeException e) {
        throw e;
      }
      if (t instanceof Error e) {
        throw e;
      }
      throw new IOException(t.getMessage(), t);
    }
    try (VectorSchemaRoot batch = (VectorSchemaRoot) next) {
      VectorSchemaRoot out = getVectorSchemaRoot();
      for (int i = 0; i < batch.getFieldVectors().size(); i++) {
        batch.getVector(i).makeTransferPair(out.getVector(i)).transfer();
      }
      out.setRowCount(batch.getRowCount());
    }
    return true;
  }

  private void startReading() {
    synchronized (lifecycle) {
      if (reading != null || closing) {
        return;
      }
      reading = new Thread(this::readAhead, "lake-ingest-read-" + THREADS.incrementAndGet());
      reading.setDaemon(true);
      reading.start();
    }
  }

  /** The reading thread: hands over each batch, then {@link #END} or the failure; returns early when closing. */
  private void readAhead() {
    try {
      Schema schema = readSchema();
      while (!closing) {
        Object next;
        try {
          next = readOne(schema);
        } catch (RuntimeException | Error e) {
          if (closing) {
            return; // stopped by close: not the stream's failure
          }
          next = e;
        }
        try {
          ready.put(next);
        } catch (InterruptedException e) {
          if (next instanceof VectorSchemaRoot batch) {
            batch.close();
          }
          return;
        }
        if (!(next instanceof VectorSchemaRoot)) {
          return;
        }
      }
    } catch (Throwable unexpected) { // readOne and put throw nothing else: never leave the consumer waiting
      ready.offer(unexpected);
    }
  }

  /** Reads, validates and moves the client's next batch into a root of its own, or returns {@link #END}. */
  private Object readOne(Schema schema) {
    try {
      if (!idle.next(stream)) {
        // a stream the guard refused may look ended to Arrow's reader: never take it for a complete one
        if (watch != null && watch.failure().isPresent()) {
          throw watch.failure().get();
        }
        return END;
      }
      VectorSchemaRoot in = stream.getRoot();
      batches++;
      BatchValidation.check(in, batches);
      VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator);
      try {
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
        return out;
      } catch (RuntimeException | Error e) {
        out.close();
        throw e;
      }
    } catch (IngestIdleException e) {
      if (!closing) {
        failure = failure == null ? e : failure;
      }
      throw e;
    } catch (RuntimeException e) {
      if (closing) {
        throw e;
      }
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

  /**
   * Stops and waits for the reading thread, then frees the batches it read that were not taken. The stream itself
   * belongs to the Flight call; it is closed when the call ends (after this).
   */
  @Override
  protected void closeReadSource() {
    Thread thread;
    synchronized (lifecycle) {
      closing = true;
      thread = reading;
    }
    if (thread != null) {
      boolean interrupted = false;
      thread.interrupt();
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true; // the thread reads lake's memory: it must end before that is freed
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    for (Object left = ready.poll(); left != null; left = ready.poll()) {
      if (left instanceof VectorSchemaRoot batch) {
        batch.close();
      }
    }
    // a pull after (or during) the close fails instead of waiting for a batch that will not come
    ready.offer(new IllegalStateException("the ingest stream's reader was closed"));
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
