package dev.lake.flight.metadata;

import dev.lake.engine.RegisteredSchema;
import dev.lake.registry.TableRegistration;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table as the metadata commands list it: its name in schema {@code lake.main} and its Arrow
 * schema as clients read it from a query (without Flight SQL column metadata, which {@link
 * FlightSqlMetadata} adds). The schema is passed on as given: map stored types to result types first
 * (no view or large string/binary types, which the JDBC driver cannot describe).
 *
 * @param name the table name as stored (lower case)
 * @param schema the table's Arrow schema as query results carry it
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

  /** A registered table, its stored schema mapped to the types query results carry. */
  public static TableInfo of(TableRegistration registration) {
    return new TableInfo(registration.name(), RegisteredSchema.of(registration));
  }
}
