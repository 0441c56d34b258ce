package dev.lake.flight.metadata;

import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table as the metadata commands list it: its name in schema {@code lake.main} and its Arrow
 * schema (without Flight SQL column metadata; {@link FlightSqlMetadata} adds that).
 *
 * @param name the table name as stored (lower case)
 * @param schema the table's Arrow schema
 */
public record TableInfo(String name, Schema schema) {
  /** Validates that both parts are present and the name is not blank. */
  public TableInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(schema, "schema");
    if (name.isBlank()) {
      throw new IllegalArgumentException("table name must not be blank");
    }
  }
}
