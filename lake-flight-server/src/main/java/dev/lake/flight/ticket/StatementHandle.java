package dev.lake.flight.ticket;

import java.util.List;
import java.util.Objects;

/**
 * A prepared statement's state, carried by the client in its handle: the SQL and the parameters bound so far.
 * No node keeps prepared statements (design.md: nodes keep no per-client state another node needs).
 */
public record StatementHandle(String sql, List<Object> parameters) {
  public StatementHandle {
    Objects.requireNonNull(sql, "sql");
    parameters = parameters == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(parameters));
  }

  public StatementHandle withParameters(List<Object> bound) {
    return new StatementHandle(sql, bound);
  }
}
