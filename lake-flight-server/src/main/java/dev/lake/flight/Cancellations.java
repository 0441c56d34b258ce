package dev.lake.flight;

import static dev.lake.flight.FlightSqlCommands.unpack;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lake.flight.limits.QueryLimits;
import dev.lake.flight.metadata.FlightSqlMetadata;
import dev.lake.flight.spool.ResultSpool;
import dev.lake.flight.ticket.InvalidTicketException;
import dev.lake.flight.ticket.QueryTicket;
import dev.lake.flight.ticket.TicketCodec;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.sql.impl.FlightSql;

/**
 * CancelFlightInfo: stops the running queries a FlightInfo's tickets name (on this node: nodes share no state, and a
 * Flight client sends the cancel over the connection its DoGet uses), and refuses those tickets here from now on;
 * a PollFlightInfo job is cancelled through the spool (on any node). The caller must own the tickets; an expired
 * ticket may still be cancelled (its DoGet may still run).
 */
final class Cancellations {
  private final TicketCodec tickets;
  private final QueryLimits limits;
  private final ResultSpool spool;
  private final FlightSqlMetadata metadata;

  Cancellations(TicketCodec tickets, QueryLimits limits, ResultSpool spool, FlightSqlMetadata metadata) {
    this.tickets = tickets;
    this.limits = limits;
    this.spool = spool;
    this.metadata = metadata;
  }

  CancelStatus cancel(CancelFlightInfoRequest request, String user) throws InvalidProtocolBufferException {
    if (ResultSpool.isJob(request.getInfo().getDescriptor())) {
      return spool.cancel(request.getInfo().getDescriptor(), user);
    }
    boolean queries = false;
    for (FlightEndpoint endpoint : request.getInfo().getEndpoints()) {
      if (ResultSpool.isPart(endpoint.getTicket().getBytes())) {
        spool.partId(endpoint.getTicket().getBytes(), user); // checks it; a spooled result is complete
        continue;
      }
      Any any = FlightSqlCommands.parseAny(endpoint.getTicket().getBytes(), "ticket");
      if (any.is(FlightSql.TicketStatementQuery.class)) {
        QueryTicket ticket = tickets.decodeForCancel(
            unpack(any, FlightSql.TicketStatementQuery.class, "ticket").getStatementHandle().toByteArray(), user);
        limits.running().cancel(ticket.queryId(), ticket.expiresAt());
        queries = true;
      } else if (!metadata.handles(any)) {
        throw new InvalidTicketException("the FlightInfo holds a ticket this server did not issue");
      }
    }
    return queries ? CancelStatus.CANCELLED : CancelStatus.NOT_CANCELLABLE;
  }
}
