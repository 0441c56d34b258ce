package dev.lake.flight;

import dev.lake.flight.grpc.StatusMapper;
import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import com.google.protobuf.ByteString;
import dev.lake.flight.auth.Identity;
import dev.lake.flight.auth.Role;
import dev.lake.flight.limits.IdleStreams;
import dev.lake.flight.streams.ColumnNames;
import dev.lake.flight.streams.StreamWatch;
import dev.lake.flight.metrics.QueryEvents;
import dev.lake.flight.metrics.QueryRecord;
import dev.lake.flight.ticket.StatementHandle;
import dev.lake.flight.ticket.TicketCodec;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightProducer.StreamListener;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The DoPut commands that take data from the client: a bulk ingest (and the prepared INSERT that spells one,
 * {@link BulkInsert}) and a prepared statement's parameters. Each waits for the client's batches within
 * {@code ingest.idle-timeout} and acknowledges with the Flight SQL result message.
 */
final class IncomingStreams {
  private final IngestHandler ingest;
  private final Access access;
  private final TicketCodec tickets;
  private final QueryEvents events;
  private final IdleStreams idle;
  private final BufferAllocator allocator;
  private final Duration firstMessageTimeout;

  IncomingStreams(IngestHandler ingest, Access access, TicketCodec tickets, QueryEvents events, IdleStreams idle,
      BufferAllocator allocator, Duration firstMessageTimeout) {
    this.firstMessageTimeout = firstMessageTimeout;
    this.ingest = ingest;
    this.access = access;
    this.tickets = tickets;
    this.events = events;
    this.idle = idle;
    this.allocator = allocator;
  }

  /** Streams a bulk ingest to the write path (writer role); acknowledges the written row count. */
  Runnable bulkIngest(FlightSql.CommandStatementIngest command, CallContext context, FlightStream stream,
      StreamListener<PutResult> ackStream) {
    return () -> {
      long start = events.start();
      long rows;
      try {
        Identity writer = access.require(context, Role.WRITER, "ingest");
        StreamWatch.current().ifPresent(w -> w.awaitSchema(firstMessageTimeout));
        ColumnNames.check(stream.getSchema());
        rows = ingest.ingest(writer, command, stream);
      } catch (Throwable t) {
        RuntimeException status = StatusMapper.toStatus(t);
        events.ingestFinished(StatusMapper.outcome(status), start);
        throw status;
      }
      events.ingestFinished(QueryRecord.OK, start);
      send(ackStream, FlightSql.DoPutUpdateResult.newBuilder().setRecordCount(rows).build().toByteArray());
      ackStream.onCompleted();
    };
  }

  /** Binds one row of parameters into the statement handle, which goes back to the client. */
  /** The most parameter rows one execution binds (each row is one endpoint of the FlightInfo). */
  static final int MAX_PARAMETER_ROWS = 1024;

  Runnable bindParameters(FlightSql.CommandPreparedStatementQuery command, FlightStream stream,
      StreamListener<PutResult> ackStream) {
    return () -> {
      StatementHandle handle = tickets.decodeHandle(command.getPreparedStatementHandle().toByteArray());
      StreamWatch.current().ifPresent(w -> w.awaitSchema(firstMessageTimeout));
      // Several rows: the statement runs once per row, results concatenated (one endpoint per row).
      List<List<Object>> rows = new java.util.ArrayList<>();
      while (idle.next(stream)) {
        VectorSchemaRoot root = stream.getRoot();
        for (int r = 0; r < root.getRowCount(); r++) {
          if (rows.size() >= MAX_PARAMETER_ROWS) {
            throw new LakeException(ErrorCode.INVALID_ARGUMENT, "lake binds at most " + MAX_PARAMETER_ROWS
                + " parameter rows to"
                + " one execution of a prepared statement; bind fewer rows per execution");
          }
          rows.add(ArrowParameters.row(root, r));
        }
      }
      byte[] updated = tickets.encodeHandle(rows.isEmpty() ? handle.withParameters(List.of())
          : handle.withRows(rows));
      send(ackStream, FlightSql.DoPutPreparedStatementResult.newBuilder()
          .setPreparedStatementHandle(ByteString.copyFrom(updated)).build().toByteArray());
      ackStream.onCompleted();
    };
  }

  private void send(StreamListener<PutResult> ackStream, byte[] bytes) {
    try (ArrowBuf buf = allocator.buffer(bytes.length)) {
      buf.writeBytes(bytes);
      ackStream.onNext(PutResult.metadata(buf));
    }
  }
}
