package dev.lake.flight.ticket;

import java.util.List;
import java.util.Objects;

/**
 * A prepared statement's state, carried by the client in its handle: the SQL and the parameters bound so far — one row
 * ({@link #parameters()}), or several ({@link #rows()}): a statement bound with several parameter rows runs once per
 * row and its results are concatenated (one endpoint per row, in order). No node keeps prepared statements
 * (docs/design.md: nodes keep no per-client state another node needs).
 */
public record StatementHandle(String sql, List<Object> parameters, List<List<Object>> moreRows) {
  public StatementHandle {
    Objects.requireNonNull(sql, "sql");
    parameters = parameters == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(parameters));
    moreRows = moreRows == null ? List.of() : moreRows.stream()
        .map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
  }

  public StatementHandle(String sql, List<Object> parameters) {
    this(sql, parameters, List.of());
  }

  public StatementHandle withParameters(List<Object> bound) {
    return new StatementHandle(sql, bound, List.of());
  }

  /** The statement bound with {@code rows} (at least one). */
  public StatementHandle withRows(List<List<Object>> rows) {
    return new StatementHandle(sql, rows.get(0), rows.subList(1, rows.size()));
  }

  /** Every bound parameter row, in order: the statement runs once per row. */
  public List<List<Object>> rows() {
    List<List<Object>> out = new java.util.ArrayList<>();
    out.add(parameters);
    out.addAll(moreRows);
    return out;
  }
}
