package dev.lake.query;

import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import dev.lake.query.plan.lance.LanceTable;
import dev.lake.query.plan.TableResolver;
import dev.lake.registry.TableRegistration;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Resolves the table references of a statement being prepared to pins through the catalog (no data read): the
 * current registration, or for time travel the registered version the history gives. The schema is the
 * registration's; for an older version it is read from that version ({@code versionSchemas}), since a replace may
 * have changed it.
 */
final class CatalogTables implements TableResolver {
  private final Catalog catalog;
  private final Function<TablePin, Schema> versionSchemas;

  /**
   * @param versionSchemas reads the stored schema of a pinned version other than the registered one
   */
  CatalogTables(Catalog catalog, Function<TablePin, Schema> versionSchemas) {
    this.catalog = catalog;
    this.versionSchemas = versionSchemas;
  }

  @Override
  public Optional<LanceTable> resolve(TableReference reference) {
    Optional<TableRegistration> current = catalog.table(reference.name());
    if (current.isEmpty()) {
      return Optional.empty();
    }
    TablePin pin = pin(reference, current.get());
    Schema schema = pin.version() == current.get().version() ? schemaOf(current.get()) : versionSchemas.apply(pin);
    return Optional.of(new LanceTable(reference, pin, schema));
  }

  /**
   * The pins the given references resolve to now, by reference key; references naming no table are left out.
   * Cheap with a caching catalog: what a plan-cache look-up costs instead of parsing and validating.
   */
  Map<String, TablePin> pins(List<TableReference> references) {
    Map<String, TablePin> pins = new HashMap<>();
    for (TableReference reference : references) {
      catalog.table(reference.name()).ifPresent(current -> pins.put(reference.key(), pin(reference, current)));
    }
    return pins;
  }

  /**
   * Whether {@code pins} pin every table of a statement validated over {@code tables} at the version it was validated
   * for, or at a later version of the same registration with the same stored schema: the statement's result and
   * parameter types are then the same at these pins (an execution checks more before it reuses the plan itself,
   * {@link dev.lake.query.exec.PinnedTables#smallAppendsOf}).
   */
  boolean laterRegistrations(Map<String, LanceTable> tables, Map<String, TablePin> pins) {
    if (!pins.keySet().equals(tables.keySet())) {
      return false;
    }
    for (Map.Entry<String, LanceTable> entry : tables.entrySet()) {
      TablePin pin = pins.get(entry.getKey());
      TablePin validated = entry.getValue().pin();
      if (pin.equals(validated)) {
        continue;
      }
      Optional<TableRegistration> current = catalog.table(pin.name());
      if (!pin.name().equals(validated.name()) || !pin.generation().equals(validated.generation())
          || !pin.location().equals(validated.location()) || pin.version() <= validated.version()
          || current.isEmpty() || current.get().version() != pin.version()
          || !schemaOf(current.get()).equals(entry.getValue().schema())) {
        return false;
      }
    }
    return true;
  }

  private TablePin pin(TableReference reference, TableRegistration current) {
    if (!reference.timeTravel()) {
      return TablePin.of(current);
    }
    return TimeTravel.pin(reference, current, catalog.history(current.name(), current.generation()));
  }

  static Schema schemaOf(TableRegistration registration) {
    return dev.lake.engine.RegisteredSchema.of(registration);
  }
}
