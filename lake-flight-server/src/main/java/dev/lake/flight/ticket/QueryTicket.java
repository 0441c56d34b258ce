package dev.lake.flight.ticket;

import dev.lake.query.model.TablePin;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a DoGet needs to serve a planned query on any node: the SQL, bound parameters, the versions pinned when it
 * was executed, the user it was issued to, its expiry, and the query id under which a DoGet of it runs (what
 * {@code CancelFlightInfo} names).
 */
public record QueryTicket(String sql, List<Object> parameters, Map<String, TablePin> pins, String user,
    Instant expiresAt, String queryId) {
  public QueryTicket {
    Objects.requireNonNull(queryId, "queryId");
    Objects.requireNonNull(sql, "sql");
    parameters = parameters == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(parameters));
    pins = Map.copyOf(pins);
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
