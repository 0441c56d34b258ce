package dev.lake.query.exec;

import dev.lake.engine.DatasetNotFoundException;
import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.query.TablePin;
import dev.lake.query.plan.LanceTable;
import dev.lake.query.plan.TableResolver;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableNotFoundException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves the tables of an executing statement to exactly their pinned versions (never "latest"): a name without
 * a pin is not found; a pinned version that is gone is not found either, with a message saying so.
 */
public final class PinnedTables implements TableResolver {
  private final Map<String, TablePin> pins = new HashMap<>();
  private final TableEngine engine;
  private final QueryResources resources;
  private final int batchSize;

  public PinnedTables(Map<String, TablePin> pins, TableEngine engine, QueryResources resources, int batchSize) {
    pins.values().forEach(pin -> this.pins.put(pin.name(), pin));
    pins.forEach((name, pin) -> {
      if (TableNames.isValid(name)) {
        this.pins.putIfAbsent(TableNames.normalize(name), pin);
      }
    });
    this.engine = engine;
    this.resources = resources;
    this.batchSize = batchSize;
  }

  @Override
  public Optional<LanceTable> resolve(String name) {
    TablePin pin = pins.get(name);
    if (pin == null) {
      return Optional.empty();
    }
    TableSnapshot snapshot;
    try {
      snapshot = resources.open(engine, pin);
    } catch (DatasetNotFoundException e) {
      throw new TableNotFoundException(name, "version " + pin.version() + " of table '" + name
          + "' is no longer available (the table was dropped, or the version was cleaned up after the retention"
          + " window); run the query again to read the current version");
    }
    return Optional.of(new LanceTable(pin, snapshot.schema(), new LanceScanSource(snapshot, resources, batchSize)));
  }
}
