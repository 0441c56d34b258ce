package dev.lake.flight;

import dev.lake.flight.grpc.StatusMapper;
import dev.lake.flight.limits.QueryControl;
import dev.lake.flight.limits.UserLimits;
import dev.lake.flight.limits.QueryLimits;
import dev.lake.flight.metrics.QueryEvents;
import dev.lake.flight.metrics.QueryRecord;
import dev.lake.flight.spool.ResultSpool;
import dev.lake.flight.ticket.QueryTicket;
import dev.lake.query.PreparedQuery;
import dev.lake.query.QueryService;
import dev.lake.query.guard.QueryGuard;
import dev.lake.flight.limits.QueryTimeoutException;
import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.slf4j.MDC;

/**
 * Runs statements for the producer: preparing (under the query's id in the MDC), and DoGet of a ticket or of a
 * spooled part under the read-path limits (timeout and admission slot from DoGet's start to the last batch, a child
 * allocator per query). Every query is reported once to {@link QueryEvents}, with its final outcome: when it fails
 * to prepare, or when its DoGet ends; a PollFlightInfo job when it ends ({@link #spoolRunner}). Every log line of a
 * query carries its id (MDC key {@value #QUERY_ID}).
 */
final class StatementStreams {
  static final String QUERY_ID = "queryId";
  private final QueryService query;
  private final QueryLimits limits;
  private final BufferAllocator allocator;
  private final QueryEvents events;
  private final ResultSpool spool;

  StatementStreams(QueryService query, QueryLimits limits, BufferAllocator allocator, QueryEvents events,
      ResultSpool spool) {
    this.query = query;
    this.limits = limits;
    this.allocator = allocator;
    this.events = events;
    this.spool = spool;
  }

  /**
   * Prepares {@code sql} under its query id; a statement that fails here never executes, so it is reported as a
   * query with its status code now. Throws the status the client gets.
   */
  PreparedQuery prepare(String sql, String user, String queryId) {
    long start = events.start();
    // Planning without executing is bounded like an execution: the statement limits (checked while parsing) and
    // query.planning-timeout, at which validation stops where it polls the guard (docs/api.md, "Limits").
    QueryGuard guard = new QueryGuard();
    java.util.concurrent.ScheduledFuture<?> deadline = limits.planningDeadline(() -> guard.stop(
        ErrorCode.DEADLINE_EXCEEDED, "planning the statement took longer than query.planning-timeout ("
            + limits.planningTimeoutText() + ") and was stopped; simplify the statement"));
    try (MDC.MDCCloseable id = MDC.putCloseable(QUERY_ID, queryId)) {
      return query.prepare(sql, allocator, guard);
    } catch (Throwable t) {
      RuntimeException status = StatusMapper.toStatus(t);
      events.queryFinished(new QueryRecord(queryId, user, sql, StatusMapper.outcome(status), events.since(start), 0,
          0));
      throw status;
    } finally {
      deadline.cancel(false);
    }
  }

  /** Streams the statement a verified ticket carries (its pinned versions, its parameters). */
  void statement(QueryTicket ticket, ServerStreamListener listener) {
    try (MDC.MDCCloseable id = MDC.putCloseable(QUERY_ID, ticket.queryId())) {
      long start = events.start();
      ResultStreamer.Sent sent = new ResultStreamer.Sent(events);
      String outcome = QueryRecord.OK;
      // The query's timeout and admission slot run from here to its last batch (docs/design.md, Flows: Read).
      QueryControl control = limits.begin(ticket.queryId(), listener);
      // The work polls this flag in every phase; the slot is given back (control.close) only once it has unwound.
      QueryGuard guard = new QueryGuard();
      control.onStop(reason -> guard.stop(stopCode(reason), reason.getMessage()));
      BufferAllocator queryAllocator = null;
      UserLimits.Permit permit = null;
      try {
        permit = limits.users().acquire(ticket.user()); // the user's own limit, before a node slot
        UserLimits.Permit counted = permit;
        control.admit();
        queryAllocator = allocator.newChildAllocator("query", 0, Long.MAX_VALUE);
        BufferAllocator parent = queryAllocator;
        ArrowReader[] planned = new ArrowReader[1];
        try {
          control.interruptibly(() -> planned[0] = query.execute(ticket.sql(), ticket.pins(), ticket.parameters(),
              parent, guard));
        } catch (Throwable t) {
          if (planned[0] != null) {
            planned[0].close();
          }
          throw t;
        }
        try (ArrowReader reader = planned[0]) {
          // The user's count drops before the client sees the end of the stream: a client that read the whole
          // answer and asks again at once is not refused for a query that is only waiting for its memory to drain.
          ResultStreamer.stream(reader, control, sent, limits.writeStall(), counted::close);
        }
      } catch (Throwable t) {
        RuntimeException status = StatusMapper.toStatus(t);
        outcome = StatusMapper.outcome(status);
        control.fail(status);
      } finally {
        if (queryAllocator != null) {
          ResultStreamer.closeWhenDrained(queryAllocator);
        }
        control.close();
        if (permit != null) {
          permit.close();
        }
        events.queryFinished(new QueryRecord(ticket.queryId(), ticket.user(), ticket.sql(), outcome,
            events.since(start), sent.rows(), sent.bytes()));
      }
    }
  }

  /**
   * The statement path of PollFlightInfo jobs: they execute as DoGet does ({@link QueryService#execute}) and each
   * job's end is reported to {@link QueryEvents} as a query (metrics, slow-query log) under its query id. The
   * spool's jobs take the same admission slots, per-user count, timeout and memory pool as DoGets.
   */
  static ResultSpool.QueryRunner spoolRunner(QueryService query, QueryEvents events) {
    return new ResultSpool.QueryRunner() {
      @Override
      public ArrowReader execute(String sql, java.util.Map<String, dev.lake.query.model.TablePin> pins,
          java.util.List<Object> parameters, BufferAllocator allocator, QueryGuard guard) {
        return query.execute(sql, pins, parameters, allocator, guard);
      }

      @Override
      public void finished(String queryId, String user, String sql, java.util.Optional<RuntimeException> failure,
          java.time.Duration duration, long rows, long bytes) {
        events.queryFinished(new QueryRecord(queryId, user, sql, failure.map(StatusMapper::outcome)
            .orElse(QueryRecord.OK), duration, rows, bytes));
      }
    };
  }

  private static ErrorCode stopCode(RuntimeException reason) {
    if (reason instanceof CodedFailure coded) {
      return coded.errorCode();
    }
    return reason instanceof QueryTimeoutException ? ErrorCode.DEADLINE_EXCEEDED : ErrorCode.CANCELLED;
  }

  /** A spooled part of a heavy result through gRPC (the fallback of its presigned URL), under the same limits. */
  void spooled(byte[] ticket, String user, ServerStreamListener listener) {
    QueryControl control = limits.begin(spool.partId(ticket, user), listener);
    BufferAllocator queryAllocator = null;
    try {
      control.admit();
      queryAllocator = allocator.newChildAllocator("query-spooled", 0, Long.MAX_VALUE);
      try (ArrowReader reader = spool.openPart(ticket, user, queryAllocator)) {
        ResultStreamer.stream(reader, control, new ResultStreamer.Sent(events), limits.writeStall());
      }
    } catch (Throwable t) {
      control.fail(t);
    } finally {
      if (queryAllocator != null) {
        ResultStreamer.closeWhenDrained(queryAllocator);
      }
      control.close();
    }
  }
}
