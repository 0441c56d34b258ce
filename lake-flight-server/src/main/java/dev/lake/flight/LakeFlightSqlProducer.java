package dev.lake.flight;

import static dev.lake.flight.FlightSqlCommands.unpack;

import dev.lake.flight.grpc.StatusMapper;
import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lake.flight.limits.QueryLimits;
import dev.lake.flight.metrics.QueryEvents;
import dev.lake.flight.session.SessionOptionsHandler;
import dev.lake.flight.spool.ResultSpool;
import dev.lake.flight.streams.OpenStreams;
import dev.lake.flight.streams.StreamSettings;
import dev.lake.flight.streams.StreamWatch;
import dev.lake.flight.metadata.FlightSqlMetadata;
import dev.lake.flight.ticket.InvalidTicketException;
import dev.lake.flight.ticket.QueryTicket;
import dev.lake.flight.ticket.StatementHandle;
import dev.lake.flight.ticket.TicketCodec;
import dev.lake.query.PreparedQuery;
import dev.lake.query.QueryService;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.GetSessionOptionsRequest;
import org.apache.arrow.flight.GetSessionOptionsResult;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.NoOpFlightSqlProducer;
import org.apache.arrow.flight.sql.FlightSqlUtils;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * lake's Flight SQL producer. Thin: it decodes commands, delegates to the query service ({@link QueryService}),
 * the write path ({@link IngestHandler}, {@link AdminActions}) and the metadata answers
 * ({@link FlightSqlMetadata}, routed in {@link #getFlightInfo} and {@link #getStream}), and sends every failure
 * through {@link StatusMapper}. Commands lake does not serve keep {@link NoOpFlightSqlProducer}'s UNIMPLEMENTED.
 * Finished queries and ingests go to {@link QueryEvents} (metrics, slow-query log); every log line of a query carries
 * its id ({@link StatementStreams}); session options are answered by {@link SessionOptionsHandler}.
 *
 * <p>Stateless across nodes: a prepared statement's handle carries its SQL and bound parameters, and a ticket
 * carries the SQL, parameters, pinned versions, user and expiry, all signed with the cluster secret.
 */
final class LakeFlightSqlProducer extends NoOpFlightSqlProducer {
  private static final Schema EMPTY = new Schema(List.of());
  private final QueryService query;
  private final FlightSqlMetadata metadata;
  private final AdminActions actions;
  private final TicketCodec tickets;
  private final Access access;
  private final BufferAllocator allocator;
  private final Clock clock;
  private final Duration ticketLifetime;
  private final QueryLimits limits;
  private final ResultSpool spool;
  private final QueryEvents events;
  private final SessionOptionsHandler sessions;
  private final StatementStreams streams;
  private final IncomingStreams incoming;
  private final StreamSettings streamSettings;
  private final OpenStreams openStreams;
  private final Cancellations cancellations;

  LakeFlightSqlProducer(QueryService query, FlightSqlMetadata metadata, IngestHandler ingest, AdminActions actions,
      TicketCodec tickets, Access access, BufferAllocator allocator, Clock clock, Duration ticketLifetime,
      QueryLimits limits, ResultSpool spool, QueryEvents events, SessionOptionsHandler sessions,
      StreamSettings streamSettings) {
    this.streamSettings = streamSettings;
    this.openStreams = new OpenStreams(streamSettings.maxStreamsPerUser());
    this.events = events;
    this.sessions = sessions;
    this.streams = new StatementStreams(query, limits, allocator, events, spool);
    this.cancellations = new Cancellations(tickets, limits, spool, metadata);
    this.incoming = new IncomingStreams(ingest, access, tickets, events, limits.idleStreams(), allocator,
        streamSettings.firstMessageTimeout());
    this.query = query;
    this.metadata = metadata;
    this.actions = actions;
    this.tickets = tickets;
    this.access = access;
    this.allocator = allocator;
    this.clock = clock;
    this.ticketLifetime = ticketLifetime;
    this.limits = limits;
    this.spool = spool;
  }

  // ---- dispatch with error mapping ----

  @Override
  public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
    try {
      Any command = FlightSqlCommands.command(descriptor); // a clear INVALID_ARGUMENT for bytes that are not a Flight SQL command
      if (metadata.handles(command)) {
        return metadata.flightInfo(command, descriptor);
      }
      return super.getFlightInfo(context, descriptor);
    } catch (Throwable t) {
      throw StatusMapper.toStatus(t);
    }
  }

  @Override
  public SchemaResult getSchema(CallContext context, FlightDescriptor descriptor) {
    try {
      FlightSqlCommands.command(descriptor);
      return super.getSchema(context, descriptor);
    } catch (Throwable t) {
      throw StatusMapper.toStatus(t);
    }
  }

  @Override
  public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
    try {
      if (ResultSpool.isPart(ticket.getBytes())) {
        streams.spooled(ticket.getBytes(), access.identity(context).user(), listener);
        return;
      }
      Any any = FlightSqlCommands.parseAny(ticket.getBytes(), "ticket");
      if (any.is(FlightSql.TicketStatementQuery.class)) {
        getStreamStatement(unpack(any, FlightSql.TicketStatementQuery.class, "ticket"), context, listener);
      } else if (metadata.handles(any)) {
        metadata.stream(any, allocator, listener);
      } else {
        throw new InvalidTicketException("the ticket is not one this server issued");
      }
    } catch (Throwable t) {
      listener.error(StatusMapper.toStatus(t));
    }
  }

  /**
   * Every DoPut: counted against the caller's open streams ({@code ingest.max-streams-per-user}); its descriptor
   * awaited within {@code ingest.first-message-timeout} (the guard frees the wait at once when the stream is refused,
   * cancelled or ends); then dispatched by command. Arrow runs the returned body on the same thread right away.
   */
  @Override
  public Runnable acceptPut(CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream) {
    return () -> {
      OpenStreams.Permit permit = null;
      try {
        permit = openStreams.open(access.identity(context).user());
        StreamWatch.current().ifPresent(w -> w.awaitDescriptor(streamSettings.firstMessageTimeout()));
        FlightSqlCommands.command(flightStream.getDescriptor());
        super.acceptPut(context, flightStream, ackStream).run();
      } catch (Throwable t) {
        ackStream.onError(StatusMapper.toStatus(t));
      } finally {
        if (permit != null) {
          permit.close();
        }
      }
    };
  }

  @Override
  public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
    try {
      dev.lake.flight.security.FlightActionBodies.check(action);
      if (actions.handles(action.getType())) {
        actions.run(access.identity(context), action, listener);
        return;
      }
      boolean flightSql = FlightSqlUtils.FLIGHT_SQL_ACTIONS.stream()
          .anyMatch(t -> t.getType().equals(action.getType()))
          || dev.lake.flight.security.FlightActionBodies.isCoreFlightAction(action.getType());
      if (!flightSql) {
        throw new LakeException(ErrorCode.UNIMPLEMENTED, "unknown action '" + StatusMapper.truncate(action.getType())
            + "'; ListActions names the ones lake has");
      }
      super.doAction(context, action, listener);
    } catch (Throwable t) {
      listener.onError(StatusMapper.toStatus(t));
    }
  }

  @Override
  public void listActions(CallContext context, StreamListener<ActionType> listener) {
    ServedActions.all(actions.types()).forEach(listener::onNext);
    listener.onCompleted();
  }

  // ---- what lake does not have: UNIMPLEMENTED with a message ----

  @Override
  public void beginTransaction(FlightSql.ActionBeginTransactionRequest request, CallContext context,
      StreamListener<FlightSql.ActionBeginTransactionResult> listener) {
    listener.onError(StatusMapper.toStatus(ServedActions.noTransactions()));
  }

  @Override
  public void beginSavepoint(FlightSql.ActionBeginSavepointRequest request, CallContext context,
      StreamListener<FlightSql.ActionBeginSavepointResult> listener) {
    listener.onError(StatusMapper.toStatus(ServedActions.noTransactions()));
  }

  @Override
  public void endTransaction(FlightSql.ActionEndTransactionRequest request, CallContext context,
      StreamListener<Result> listener) {
    listener.onError(StatusMapper.toStatus(ServedActions.noTransactions()));
  }

  @Override
  public void endSavepoint(FlightSql.ActionEndSavepointRequest request, CallContext context,
      StreamListener<Result> listener) {
    listener.onError(StatusMapper.toStatus(ServedActions.noTransactions()));
  }

  @Override
  public void createPreparedSubstraitPlan(FlightSql.ActionCreatePreparedSubstraitPlanRequest request,
      CallContext context, StreamListener<FlightSql.ActionCreatePreparedStatementResult> listener) {
    listener.onError(StatusMapper.toStatus(ServedActions.noSubstrait()));
  }

  @Override
  public FlightInfo getFlightInfoSubstraitPlan(FlightSql.CommandStatementSubstraitPlan command, CallContext context,
      FlightDescriptor descriptor) {
    throw ServedActions.noSubstrait();
  }

  @Override
  public SchemaResult getSchemaSubstraitPlan(FlightSql.CommandStatementSubstraitPlan command, CallContext context,
      FlightDescriptor descriptor) {
    throw ServedActions.noSubstrait();
  }

  @Override
  public Runnable acceptPutSubstraitPlan(FlightSql.CommandStatementSubstraitPlan command, CallContext context,
      FlightStream flightStream, StreamListener<PutResult> ackStream) {
    return () -> ackStream.onError(StatusMapper.toStatus(ServedActions.noSubstrait()));
  }

  // ---- statements ----

  @Override
  public void createPreparedStatement(FlightSql.ActionCreatePreparedStatementRequest request, CallContext context,
      StreamListener<Result> listener) {
    try {
      if (request.hasTransactionId()) {
        throw new LakeException(ErrorCode.UNIMPLEMENTED, "lake has no transactions");
      }
      byte[] handle = tickets.encodeHandle(new StatementHandle(request.getQuery(), List.of()));
      Schema dataset = EMPTY;
      Schema parameters = EMPTY;
      if (BulkInsert.parse(request.getQuery()).isEmpty()) { // a bulk append is checked when its rows arrive
        PreparedQuery prepared = streams.prepare(request.getQuery(), access.identity(context).user(),
            UUID.randomUUID().toString());
        dataset = prepared.resultSchema();
        parameters = prepared.parameterSchema();
      }
      FlightSql.ActionCreatePreparedStatementResult result = FlightSql.ActionCreatePreparedStatementResult
          .newBuilder()
          .setPreparedStatementHandle(ByteString.copyFrom(handle))
          .setDatasetSchema(FlightSqlCommands.serialize(dataset))
          .setParameterSchema(FlightSqlCommands.serialize(parameters))
          .build();
      listener.onNext(new Result(Any.pack(result).toByteArray()));
      listener.onCompleted();
    } catch (Throwable t) {
      listener.onError(StatusMapper.toStatus(t));
    }
  }

  @Override
  public void closePreparedStatement(FlightSql.ActionClosePreparedStatementRequest request, CallContext context,
      StreamListener<Result> listener) {
    // Handles are self-contained; there is nothing to release. Still reject bytes we never issued.
    try {
      tickets.decodeHandle(request.getPreparedStatementHandle().toByteArray());
      listener.onCompleted();
    } catch (Throwable t) {
      listener.onError(StatusMapper.toStatus(t));
    }
  }

  @Override
  public FlightInfo getFlightInfoStatement(FlightSql.CommandStatementQuery command, CallContext context,
      FlightDescriptor descriptor) {
    if (command.hasTransactionId()) {
      throw new LakeException(ErrorCode.UNIMPLEMENTED, "lake has no transactions");
    }
    return plan(new StatementHandle(command.getQuery(), List.of()), context, descriptor);
  }

  @Override
  public FlightInfo getFlightInfoPreparedStatement(FlightSql.CommandPreparedStatementQuery command,
      CallContext context, FlightDescriptor descriptor) {
    return plan(tickets.decodeHandle(command.getPreparedStatementHandle().toByteArray()), context, descriptor);
  }

  /**
   * Pins the versions now (execution time), and hands out a ticket that carries them: one endpoint, or one per bound
   * parameter row (the statement runs once per row; reading the endpoints in order concatenates the results).
   */
  private FlightInfo plan(StatementHandle statement, CallContext context, FlightDescriptor descriptor) {
    String user = access.identity(context).user();
    String queryId = UUID.randomUUID().toString();
    PreparedQuery prepared = streams.prepare(statement.sql(), user, queryId);
    List<FlightEndpoint> endpoints = new java.util.ArrayList<>();
    for (List<Object> row : statement.rows()) {
      QueryTicket ticket = new QueryTicket(statement.sql(), row, prepared.pins(), user,
          clock.instant().plus(ticketLifetime), endpoints.isEmpty() ? queryId : UUID.randomUUID().toString());
      FlightSql.TicketStatementQuery wrapped = FlightSql.TicketStatementQuery.newBuilder()
          .setStatementHandle(ByteString.copyFrom(tickets.encodeTicket(ticket))).build();
      endpoints.add(new FlightEndpoint(new Ticket(Any.pack(wrapped).toByteArray())));
    }
    return FlightInfo.builder(prepared.resultSchema(), descriptor, endpoints).setRecords(-1).setBytes(-1)
        .setOrdered(endpoints.size() > 1).build();
  }

  @Override
  public SchemaResult getSchemaStatement(FlightSql.CommandStatementQuery command, CallContext context,
      FlightDescriptor descriptor) {
    return new SchemaResult(streams.prepare(command.getQuery(), access.identity(context).user(),
        UUID.randomUUID().toString()).resultSchema());
  }

  @Override
  public SchemaResult getSchemaPreparedStatement(FlightSql.CommandPreparedStatementQuery command,
      CallContext context, FlightDescriptor descriptor) {
    StatementHandle handle = tickets.decodeHandle(command.getPreparedStatementHandle().toByteArray());
    return new SchemaResult(streams.prepare(handle.sql(), access.identity(context).user(),
        UUID.randomUUID().toString()).resultSchema());
  }

  @Override
  public void getStreamStatement(FlightSql.TicketStatementQuery ticket, CallContext context,
      ServerStreamListener listener) {
    String user = access.identity(context).user();
    streams.statement(tickets.decodeTicket(ticket.getStatementHandle().toByteArray(), user), listener);
  }

  /**
   * API tier 2: a query command starts a background job that spools the result ({@link ResultSpool}) and answers
   * with a descriptor to poll; polling that descriptor (on any node) answers from the job's state, and at the end
   * with endpoints of presigned URLs followed by a gRPC fallback. Other commands (metadata) are answered at once.
   */
  @Override
  public PollInfo pollFlightInfo(CallContext context, FlightDescriptor descriptor) {
    try {
      String user = access.identity(context).user();
      if (ResultSpool.isJob(descriptor)) {
        return spool.poll(descriptor, user);
      }
      Any command = FlightSqlCommands.command(descriptor);
      StatementHandle statement;
      if (command.is(FlightSql.CommandStatementQuery.class)) {
        FlightSql.CommandStatementQuery q = unpack(command, FlightSql.CommandStatementQuery.class, "command");
        if (q.hasTransactionId()) {
          throw new LakeException(ErrorCode.UNIMPLEMENTED, "lake has no transactions");
        }
        statement = new StatementHandle(q.getQuery(), List.of());
      } else if (command.is(FlightSql.CommandPreparedStatementQuery.class)) {
        statement = tickets.decodeHandle(unpack(command, FlightSql.CommandPreparedStatementQuery.class, "command")
            .getPreparedStatementHandle().toByteArray());
        if (!statement.moreRows().isEmpty()) {
          throw new LakeException(ErrorCode.INVALID_ARGUMENT, "PollFlightInfo runs a prepared statement with one"
              + " parameter row; this one has " + statement.rows().size()
              + ": use GetFlightInfo (one endpoint per row) or bind one row");
        }
      } else {
        return new PollInfo(getFlightInfo(context, descriptor), null, 1.0, null);
      }
      // The statement path of DoGet: prepared under its query id (a failure here is reported as a query), then the
      // job runs under the same limits and is reported when it ends (StatementStreams.spoolRunner).
      String queryId = UUID.randomUUID().toString();
      PreparedQuery prepared = streams.prepare(statement.sql(), user, queryId);
      return spool.start(queryId, user, statement.sql(), statement.parameters(), prepared.pins(),
          prepared.resultSchema());
    } catch (Throwable t) {
      throw StatusMapper.toStatus(t);
    }
  }

  /** CancelFlightInfo ({@link Cancellations}). */
  @Override
  public void cancelFlightInfo(CancelFlightInfoRequest request, CallContext context,
      StreamListener<CancelStatus> listener) {
    try {
      listener.onNext(cancellations.cancel(request, access.identity(context).user()));
      listener.onCompleted();
    } catch (Throwable t) {
      listener.onError(StatusMapper.toStatus(t));
    }
  }

  @Override
  public void getStreamPreparedStatement(FlightSql.CommandPreparedStatementQuery command, CallContext context,
      ServerStreamListener listener) {
    listener.error(StatusMapper.toStatus(new InvalidTicketException(
        "a prepared statement is executed through GetFlightInfo, whose ticket DoGet then reads")));
  }

  @Override
  public Runnable acceptPutPreparedStatementQuery(FlightSql.CommandPreparedStatementQuery command,
      CallContext context, FlightStream stream, StreamListener<PutResult> ackStream) {
    return incoming.bindParameters(command, stream, ackStream);
  }

  @Override
  public Runnable acceptPutStatementBulkIngest(FlightSql.CommandStatementIngest command, CallContext context,
      FlightStream stream, StreamListener<PutResult> ackStream) {
    return incoming.bulkIngest(command, context, stream, ackStream);
  }

  @Override
  public Runnable acceptPutStatement(FlightSql.CommandStatementUpdate command, CallContext context,
      FlightStream stream, StreamListener<PutResult> ackStream) {
    return readOnly(command.getQuery());
  }

  @Override
  public Runnable acceptPutPreparedStatementUpdate(FlightSql.CommandPreparedStatementUpdate command,
      CallContext context, FlightStream stream, StreamListener<PutResult> ackStream) {
    String sql = tickets.decodeHandle(command.getPreparedStatementHandle().toByteArray()).sql();
    Optional<BulkInsert> append = BulkInsert.parse(sql);
    return append.isPresent() ? incoming.bulkIngest(append.get().command(), context, stream, ackStream)
        : readOnly(sql);
  }

  /** An update through the query interface: the policy names the statement kind; anything it lets through is refused. */
  private Runnable readOnly(String sql) {
    return () -> {
      query.prepare(sql);
      throw new dev.lake.query.model.QueryRejectedException("queries return rows; lake's SQL surface is read-only. "
          + "Write with bulk ingest (CommandStatementIngest) and admin actions");
    };
  }

  // ---- session options (catalog, schema) ----

  @Override
  public void setSessionOptions(SetSessionOptionsRequest request, CallContext context, StreamListener<SetSessionOptionsResult> listener) {
    answer(listener, () -> sessions.set(context, request));
  }

  @Override
  public void getSessionOptions(GetSessionOptionsRequest request, CallContext context, StreamListener<GetSessionOptionsResult> listener) {
    answer(listener, () -> sessions.get(context));
  }

  @Override
  public void closeSession(CloseSessionRequest request, CallContext context, StreamListener<CloseSessionResult> listener) {
    answer(listener, () -> sessions.close(context));
  }

  @Override
  public void listFlights(CallContext context, org.apache.arrow.flight.Criteria criteria,
      StreamListener<FlightInfo> listener) {
    // Tables are listed through Flight SQL's GetTables; there are no standing flights to list.
    listener.onCompleted();
  }

  @Override
  public void close() {}

  /** Sends one result and completes, or answers the failure's status. */
  private static <T> void answer(StreamListener<T> listener, java.util.function.Supplier<T> result) {
    try {
      listener.onNext(result.get());
      listener.onCompleted();
    } catch (Throwable t) {
      listener.onError(StatusMapper.toStatus(t));
    }
  }
}
