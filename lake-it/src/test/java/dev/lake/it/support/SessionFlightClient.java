package dev.lake.it.support;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.GetSessionOptionsRequest;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpSessionOptionValueVisitor;
import org.apache.arrow.flight.SessionOptionValue;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;

/**
 * A {@link FlightSqlClient} with Arrow's client cookie middleware (as the JDBC driver and ADBC have), logged in as
 * lake/lake. Clients built on one cookie factory share one cookie jar (one session across nodes).
 */
public final class SessionFlightClient implements AutoCloseable {
  private final FlightClient flight;
  private final FlightSqlClient sql;
  private final CallOption auth;

  private SessionFlightClient(FlightClient flight, CallOption auth) {
    this.flight = flight;
    this.sql = new FlightSqlClient(flight);
    this.auth = auth;
  }

  public static SessionFlightClient connect(BufferAllocator allocator, int port,
      org.apache.arrow.flight.FlightClientMiddleware.Factory cookies) {
    FlightClient flight = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port))
        .intercept(cookies).build();
    return new SessionFlightClient(flight, flight.authenticateBasicToken("lake", "lake").orElseThrow());
  }

  public FlightSqlClient sql() {
    return sql;
  }

  public CallOption auth() {
    return auth;
  }

  /** String session options from name/value pairs. */
  public static Map<String, SessionOptionValue> options(String... pairs) {
    Map<String, SessionOptionValue> out = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.put(pairs[i], SessionOptionValueFactory.makeSessionOptionValue(pairs[i + 1]));
    }
    return out;
  }

  /** The session's options as strings. */
  public Map<String, String> options() {
    Map<String, String> out = new LinkedHashMap<>();
    sql.getSessionOptions(new GetSessionOptionsRequest(), auth).getSessionOptions()
        .forEach((name, value) -> out.put(name, value.acceptVisitor(new NoOpSessionOptionValueVisitor<>() {
          @Override
          public String visit(String v) {
            return v;
          }
        })));
    return out;
  }

  /** The BIGINT in the first column of the first row of {@code query}'s result. */
  public long count(String query) throws Exception {
    return count(sql.execute(query, auth));
  }

  public long count(FlightInfo info) throws Exception {
    long count = -1;
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      try (FlightStream stream = sql.getStream(endpoint.getTicket(), auth)) {
        while (stream.next()) {
          if (stream.getRoot().getRowCount() > 0) {
            count = ((BigIntVector) stream.getRoot().getVector(0)).get(0);
          }
        }
      }
    }
    return count;
  }

  @Override
  public void close() throws Exception {
    flight.close();
  }
}
