package dev.lake.flight.cli;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutUpdateResult;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Flight SQL bulk ingest from a client: the same {@code CommandStatementIngest} over DoPut that
 * {@code FlightSqlClient.executeIngest} sends, except for how it waits while the transport is not ready. Arrow
 * Java's {@code putNext} busy-waits on {@code isReady()}; on a machine with few cores that spin takes a core from
 * the server the client is waiting for (docs/performance.md, "Bulk ingest"). Here the sender pauses
 * ({@link Pause}, by default parking for {@value #PAUSE_MICROS} µs) until gRPC's flow control lets the next batch
 * go, as the C++ and Python clients block in gRPC instead.
 */
public final class BulkIngestPut {
  static final long PAUSE_MICROS = 100;

  /** How the sender waits once while the transport cannot take a batch. */
  @FunctionalInterface
  public interface Pause {
    Pause PARK = () -> LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(PAUSE_MICROS));

    void pause();
  }

  private BulkIngestPut() {}

  /**
   * Streams every batch of {@code data} into {@code table} and returns the row count the server acknowledged (after
   * its durable commit). {@code data} is closed. A failing reader fails the call, so nothing is committed, and its
   * exception is thrown as it is (an {@code IOException} unchecked): a local failure, not the server's answer.
   */
  public static long send(FlightClient flight, String table, TableDefinitionOptions options,
      Map<String, String> extra, ArrowReader data, CallOption... callOptions) {
    CommandStatementIngest command = CommandStatementIngest.newBuilder().setTable(table)
        .setTableDefinitionOptions(options).putAllOptions(extra).build();
    FlightDescriptor descriptor = FlightDescriptor.command(Any.pack(command).toByteArray());
    try (ArrowReader reader = data; SyncPutListener results = new SyncPutListener()) {
      FlightClient.ClientStreamListener stream = flight.startPut(descriptor, reader.getVectorSchemaRoot(), reader,
          results, callOptions);
      stream(reader, stream, results::isCancelled, Pause.PARK);
      stream.getResult();
      try (PutResult result = results.read()) {
        return DoPutUpdateResult.parseFrom(result.getApplicationMetadata().nioBuffer()).getRecordCount();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CallStatus.CANCELLED.withDescription("interrupted while waiting for the server's acknowledgement")
          .withCause(e).toRuntimeException();
    } catch (InvalidProtocolBufferException e) {
      throw CallStatus.INTERNAL.withDescription("the server's acknowledgement is not a DoPutUpdateResult")
          .withCause(e).toRuntimeException();
    } catch (ExecutionException e) { // the call failed after its result stream ended
      throw e.getCause() instanceof RuntimeException failure ? failure
          : new IllegalStateException(String.valueOf(e.getMessage()), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) { // closing the reader
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /**
   * Puts each batch of {@code reader} on {@code stream} once the transport is ready (or the call has ended, when
   * {@code ended} says so), pausing while it is not; then completes the stream. A reader that throws fails the
   * stream with its exception, which is rethrown.
   */
  static void stream(ArrowReader reader, FlightClient.ClientStreamListener stream,
      java.util.function.BooleanSupplier ended, Pause pause) throws IOException {
    try {
      while (reader.loadNextBatch()) {
        while (!stream.isReady() && !ended.getAsBoolean()) {
          pause.pause();
        }
        stream.putNext();
      }
    } catch (IOException | RuntimeException e) {
      stream.error(e);
      throw e;
    }
    stream.completed();
  }
}
