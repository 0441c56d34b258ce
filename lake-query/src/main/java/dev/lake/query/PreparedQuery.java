package dev.lake.query;

import dev.lake.query.model.TablePin;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A parsed, policy-checked and validated statement.
 *
 * @param sql the statement text
 * @param resultSchema the Arrow schema of its result batches (exactly what {@code execute} streams)
 * @param parameterSchema one field per {@code ?} parameter, in order (empty when there are none)
 * @param pins the registrations the table references resolved to when this was prepared, by
 *     {@link dev.lake.query.model.TableReference#key()} ({@code t}, {@code t@v42}, {@code t@2026-01-01T00:00:00Z}): one statement may read
 *     a table at several versions, each its own entry
 */
public record PreparedQuery(String sql, Schema resultSchema, Schema parameterSchema, Map<String, TablePin> pins) {
  public PreparedQuery {
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(resultSchema, "resultSchema");
    Objects.requireNonNull(parameterSchema, "parameterSchema");
    pins = Map.copyOf(pins);
  }
}
