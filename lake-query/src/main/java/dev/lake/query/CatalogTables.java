package dev.lake.query;

import dev.lake.query.plan.LanceTable;
import dev.lake.query.plan.TableResolver;
import dev.lake.registry.TableRegistration;
import java.io.IOException;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/** Resolves tables of a statement being prepared to their current registrations in the catalog (no data read). */
final class CatalogTables implements TableResolver {
  private final Catalog catalog;

  CatalogTables(Catalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public Optional<LanceTable> resolve(String name) {
    return catalog.table(name).map(registration -> new LanceTable(TablePin.of(registration),
        schemaOf(registration), null));
  }

  static Schema schemaOf(TableRegistration registration) {
    try {
      return Schema.fromJSON(registration.schema());
    } catch (IOException | RuntimeException e) {
      throw new QueryExecutionException("the registration of table '" + registration.name() + "' (generation "
          + registration.generation() + ", version " + registration.version() + ") holds a schema that is not"
          + " Arrow schema JSON; the registry entry is damaged: " + e.getMessage(), e);
    }
  }
}
